import de.bwaldvogel.mongo.MongoServer;
import de.bwaldvogel.mongo.MongoVersion;
import de.bwaldvogel.mongo.backend.h2.H2Backend;
import java.util.List;

/**
 * Serves the MongoDB wire protocol on 127.0.0.1:<port>, keeping the data in one H2 file.
 *
 * Run as a single-file program: java -cp <classpath> Launcher.java <port> <data-file>
 *
 * The stock main class is fixed to port 27017 and reports MongoDB 5.0 (wire version 8), which
 * the Node driver 7 refuses; this launcher takes the port and reports MongoDB 7.0.
 */
public class Launcher {
  /** Wire version 21 is MongoDB 7.0; the driver only checks that it is within its supported range. */
  enum ReportedVersion implements MongoVersion {
    MONGO_7_0;

    @Override
    public List<Integer> getVersionArray() {
      return List.of(7, 0, 0);
    }

    @Override
    public int getWireVersion() {
      return 21;
    }
  }

  public static void main(String[] args) throws InterruptedException {
    if (args.length != 2) {
      System.err.println("usage: java -cp <classpath> Launcher.java <port> <data-file>");
      System.exit(2);
    }
    int port = Integer.parseInt(args[0]);
    String dataFile = args[1];

    H2Backend backend = new H2Backend(dataFile);
    backend.version(ReportedVersion.MONGO_7_0);
    MongoServer server = new MongoServer(backend);
    server.bind("127.0.0.1", port);
    // SIGTERM runs shutdown hooks; shutdownNow closes the clients and then the H2 store, so
    // committed writes are on disk when the process exits.
    Runtime.getRuntime().addShutdownHook(new Thread(server::shutdownNow, "mongo-shutdown"));
    System.out.println("mongo-java-server listening on 127.0.0.1:" + port + ", data in " + dataFile);
    Thread.currentThread().join();
  }
}
