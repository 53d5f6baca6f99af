import type { Adapter, AdapterFactory, AdapterPayload } from 'oidc-provider';
import type { ArtifactLookup, OAuthArtifactsStore } from '../stores/oauth-artifacts.js';

/** How the adapter's calls reach the library: src/oauth/outage.ts turns an outage into its own 503 error. */
type LibraryCall = <T>(call: () => Promise<T>) => Promise<T>;

/**
 * The adapter class oidc-provider instantiates once per model name, keeping each model's artifacts
 * in MongoDB through `OAuthArtifactsStore`. (The library itself is not imported here: the pages
 * read grants without loading it.)
 */
export function mongoAdapter(
  store: OAuthArtifactsStore,
  libraryCall: LibraryCall,
  now: () => Date = () => new Date(),
): AdapterFactory {
  return class MongoAdapter implements Adapter {
    constructor(private readonly modelName: string) {}

    async upsert(id: string, payload: AdapterPayload, expiresIn: number | undefined): Promise<void> {
      const expiresAt = expiresIn ? new Date(now().getTime() + expiresIn * 1000) : undefined;
      await libraryCall(() => store.upsert(this.modelName, id, payload, expiresAt));
    }

    find(id: string): Promise<AdapterPayload | undefined> {
      return this.findOne({ _id: id });
    }

    findByUid(uid: string): Promise<AdapterPayload | undefined> {
      return this.findOne({ uid });
    }

    findByUserCode(userCode: string): Promise<AdapterPayload | undefined> {
      return this.findOne({ user_code: userCode });
    }

    async consume(id: string): Promise<void> {
      await libraryCall(() => store.consume(this.modelName, id, Math.floor(now().getTime() / 1000)));
    }

    async destroy(id: string): Promise<void> {
      await libraryCall(() => store.destroy(this.modelName, id));
    }

    async revokeByGrantId(grantId: string): Promise<void> {
      await libraryCall(() => store.revokeByGrantId(this.modelName, grantId));
    }

    private findOne(lookup: ArtifactLookup): Promise<AdapterPayload | undefined> {
      return libraryCall(() => store.find(this.modelName, lookup, now()));
    }
  };
}
