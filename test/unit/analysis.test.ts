import { describe, expect, it } from 'vitest';
import { analyse, leadMatchFields, matchKey } from '../../src/domain/analysis.js';

describe('analyse', () => {
  it.each([
    ['Senior Front-End Engineers', 'senior frontend engineer'],
    ['front end engineer', 'frontend engineer'],
    ['Full Stack .NET Developer', 'fullstack dotnet developer'],
    ['fullstack dotnet developers', 'fullstack dotnet developer'],
    ['C# / C++ devs', 'csharp cpp dev'],
    ['Node.js Developer', 'nodejs developer'],
    ['node developers', 'nodejs developer'],
    ['Vue.js', 'vuejs'],
    ['golang', 'go'],
    ['dev-ops', 'devops'],
    ['Cybersecurity analysts', 'cyber security analyst'],
    ['Systems Administrator', 'system administrator'],
    ['München Ingenieur', 'munchen ingenieur'],
  ])('reads %j as %j', (text, words) => {
    expect(analyse(text).join(' ')).toBe(words);
  });

  it('makes light inflections meet without merging different words', () => {
    expect(analyse('engineers')).toEqual(analyse('engineer'));
    expect(analyse('scientists')).toEqual(analyse('scientist'));
    expect(analyse('analyses')).toEqual(analyse('analysis'));
    expect(analyse('engineering')).not.toEqual(analyse('engineer'));
    expect(analyse('java')).not.toEqual(analyse('javascript'));
    expect(analyse('data')).toEqual(['data']);
  });

  it('leaves words that only look plural alone', () => {
    for (const word of [
      'kubernetes',
      'devops',
      'mlops',
      'aws',
      'ios',
      'analytics',
      'business',
      'redis',
      'nodejs',
    ]) {
      expect(analyse(word)).toEqual([word]);
    }
  });
});

describe('matchKey', () => {
  it.each([
    ['Power BI', 'powerbi'],
    ['CI/CD', 'cicd'],
    ['REST APIs', 'rest api'],
    ['Media & Entertainment', 'media and entertainment'],
    ['A/B Testing', 'ab testing'],
    ['Objective-C', 'objective c'],
    ['E-commerce', 'ecommerce'],
    ['Health Tech', 'healthtech'],
    ['Node.js', 'nodejs'],
    ['Go', 'golang'],
  ])('gives %j and %j one key', (name, typed) => {
    expect(matchKey(typed)).toBe(matchKey(name));
  });

  it('keeps look-alike skills apart', () => {
    const keys = [
      'Java',
      'JavaScript',
      'SQL',
      'PostgreSQL',
      'MySQL',
      'C#',
      'C++',
      'R',
      'React',
      'React Native',
    ].map(matchKey);
    expect(new Set(keys).size).toBe(keys.length);
  });
});

describe('leadMatchFields', () => {
  it('gives a lead the analysed title, skill keys and industry key', () => {
    expect(
      leadMatchFields({
        title: 'Senior Node.js Developer',
        skills: ['Node.js', 'TypeScript'],
        industry: 'Health Tech',
      }),
    ).toEqual({
      title_terms: 'senior nodejs developer',
      skills_key: ['nodejs', 'typescript'],
      industry_key: 'healthtech',
    });
  });
});
