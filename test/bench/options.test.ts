import { describe, expect, it } from 'vitest';
import { parseOptions, type BenchOptions } from '../../bench/lib/options.ts';

function parsed(argv: string[]): BenchOptions {
  return parseOptions(argv);
}

describe('bench flags', () => {
  it.each([
    [
      'nothing: every section but the profile and the instruction counts',
      {
        argv: [],
        sections: [
          'request-path',
          'memory',
          'container',
          'postgres',
          'list-scaling',
          'list-options',
          'search-beside',
          'write-cost',
          'route-scaling',
          'generator',
          'serialisation',
        ],
        endpoints: ['get-one', 'get-list', 'revalidate', 'post'],
      },
    ],
    [
      'an endpoint implies the request path',
      { argv: ['--only', 'get-one'], sections: ['request-path'], endpoints: ['get-one'] },
    ],
    [
      'an endpoint with another section',
      {
        argv: ['--only', 'get-one,serialisation'],
        sections: ['request-path', 'serialisation'],
        endpoints: ['get-one'],
      },
    ],
    [
      'the PostgreSQL path takes the endpoints named with it',
      { argv: ['--only', 'postgres,get-one'], sections: ['postgres'], endpoints: ['get-one'] },
    ],
    [
      'the profile takes the endpoint',
      { argv: ['--only', 'profile,post'], sections: ['profile'], endpoints: ['post'] },
    ],
    [
      'the instruction counts take the endpoints named with them',
      {
        argv: ['--only', 'instructions,get-list,revalidate'],
        sections: ['instructions'],
        endpoints: ['get-list', 'revalidate'],
      },
    ],
    [
      'the memory sections',
      {
        argv: ['--only', 'container,memory'],
        sections: ['memory', 'container'],
        endpoints: ['get-one', 'get-list', 'revalidate', 'post'],
      },
    ],
    [
      'sections only',
      {
        argv: ['--only', 'generator,route-scaling'],
        sections: ['route-scaling', 'generator'],
        endpoints: ['get-one', 'get-list', 'revalidate', 'post'],
      },
    ],
    [
      '--against runs alone, on the endpoints named',
      { argv: ['--against', 'HEAD~1', '--only', 'get-one'], sections: ['against'], endpoints: ['get-one'] },
    ],
  ])('%s', (_name, { argv, sections, endpoints }) => {
    const options = parsed(argv);
    expect(options.sections).toEqual(sections);
    expect(options.endpoints).toEqual(endpoints);
  });

  it('--quick shortens rounds and stops the generator at 100 collections', () => {
    const options = parsed(['--quick']);
    expect(options.plan).toEqual({ warmupSeconds: 1, rounds: 3, durationSeconds: 1, connections: 10 });
    expect(options.generatorCounts).toEqual([10, 100]);
  });

  it('waits 30 s after the memory load before the last reading, 5 s with --quick, or what --after says', () => {
    expect(parsed([]).afterSeconds).toBe(30);
    expect(parsed(['--quick']).afterSeconds).toBe(5);
    expect(parsed(['--quick', '--after', '12']).afterSeconds).toBe(12);
  });

  it('pins CPUs unless --no-pin', () => {
    expect(parsed([]).pin).toBe(true);
    expect(parsed(['--no-pin']).pin).toBe(false);
  });

  it('refuses an unknown --only item, naming the choices', () => {
    expect(() => parseOptions(['--only', 'get-all'])).toThrow(/unknown "get-all"; choose from request-path/);
  });

  it('--only against needs a ref', () => {
    expect(() => parseOptions(['--only', 'against'])).toThrow(/--only against needs --against REF/);
    expect(parsed(['--against', 'main']).against).toBe('main');
  });

  it('--against serves from SQLite, or from PostgreSQL when --only names postgres with it', () => {
    expect(parsed(['--against', 'main']).againstEngine).toBe('sqlite');
    const onPostgres = parsed(['--against', 'main', '--only', 'postgres,get-one']);
    expect(onPostgres).toMatchObject({ againstEngine: 'postgres', sections: ['against'], endpoints: ['get-one'] });
  });

  it('refuses a round count that is not a whole number', () => {
    expect(() => parseOptions(['--rounds', '0'])).toThrow(/whole number >= 1/);
  });
});
