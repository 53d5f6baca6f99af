import { describe, expect, it } from 'vitest';
import { parseJavaMajor, pickJdk } from '../../scripts/stack/jdk.js';

describe('parseJavaMajor', () => {
  it('reads modern and legacy version strings', () => {
    expect(parseJavaMajor('IMPLEMENTOR="Eclipse Adoptium"\nJAVA_VERSION="25.0.3"\n')).toBe(25);
    expect(parseJavaMajor('JAVA_VERSION="21"\n')).toBe(21);
    expect(parseJavaMajor('JAVA_VERSION="1.8.0_392"\n')).toBe(8);
  });

  it('gives up on a release file without a version', () => {
    expect(parseJavaMajor('IMPLEMENTOR="Debian"\n')).toBeUndefined();
  });
});

describe('pickJdk', () => {
  const jdks = [
    { home: '/usr/lib/jvm/java-17-openjdk-amd64', major: 17 },
    { home: '/usr/lib/jvm/temurin-25-jdk-amd64', major: 25 },
    { home: '/usr/lib/jvm/java-21-openjdk-amd64', major: 21 },
  ];

  it('takes the newest JDK at or above the minimum', () => {
    expect(pickJdk(jdks, 21)?.home).toBe('/usr/lib/jvm/temurin-25-jdk-amd64');
  });

  it('finds none when all are too old', () => {
    expect(
      pickJdk(
        jdks.filter((jdk) => jdk.major < 21),
        21,
      ),
    ).toBeUndefined();
  });
});
