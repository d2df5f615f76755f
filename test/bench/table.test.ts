import { describe, expect, it } from 'vitest';
import { renderTable } from '../../bench/lib/table.ts';

describe('bench tables', () => {
  it('renders a padded Markdown table, numbers right-aligned, with notes', () => {
    const text = renderTable({
      title: 'Example',
      columns: [{ title: 'server' }, { title: 'req/s', align: 'right' }],
      rows: [
        ['a', '12,345'],
        ['generated', '9'],
      ],
      notes: ['one note'],
    });
    expect(text).toBe(
      [
        '### Example',
        '',
        '| server    |  req/s |',
        '| --------- | -----: |',
        '| a         | 12,345 |',
        '| generated |      9 |',
        '',
        '- one note',
      ].join('\n'),
    );
  });

  it('keeps short columns at least three dashes wide, as Markdown needs', () => {
    expect(renderTable({ title: 'T', columns: [{ title: '' }], rows: [['x']] }).split('\n')[3]).toBe('| --- |');
  });
});
