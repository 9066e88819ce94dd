import { renderToStaticMarkup } from 'react-dom/server';
import { describe, expect, it } from 'vitest';
import { CountryPicker } from '../../../../src-renderer/components/country-picker.js';
import { ProgressBar } from '../../../../src-renderer/components/progress-bar.js';
import { TextField } from '../../../../src-renderer/components/text-field.js';

describe('TextField', () => {
  it('ties the error, hint and counter to the field and marks it invalid', () => {
    const html = renderToStaticMarkup(
      <TextField
        label="Name"
        value="abc"
        max={255}
        hint="Shown to viewers"
        error="Name is wrong."
        onChange={() => {}}
      />,
    );
    const describedBy = /aria-describedby="([^"]+)"/.exec(html)![1]!.split(' ');
    expect(html).toContain('aria-invalid="true"');
    expect(describedBy).toHaveLength(3);
    for (const id of describedBy) expect(html).toContain(`id="${id}"`);
    expect(html).toContain('Name is wrong.');
    expect(html).toContain('3 of 255 characters');
  });

  it('is not marked invalid without an error', () => {
    const html = renderToStaticMarkup(<TextField label="Name" value="" onChange={() => {}} />);
    expect(html).not.toContain('aria-invalid');
    expect(html).not.toContain('aria-describedby');
  });
});

describe('CountryPicker', () => {
  it('shows chosen countries as removable chips and every country as a checkbox', () => {
    const html = renderToStaticMarkup(
      <CountryPicker legend="Blocked countries" value={['DE', 'FR']} max={250} onChange={() => {}} />,
    );
    expect(html).toContain('aria-label="Remove Germany (DE)"');
    expect(html).toContain('aria-label="Remove France (FR)"');
    expect(html.match(/type="checkbox"/g)).toHaveLength(249);
    expect(html.match(/checked=""/g)).toHaveLength(2);
    expect(html).toContain('2 of at most 250 chosen.');
  });
});

describe('ProgressBar', () => {
  it('is a named progressbar at the whole percentage sent, its fills scaled to the fractions sent and confirmed', () => {
    const html = renderToStaticMarkup(<ProgressBar confirmed={36} sent={45} max={90} label="Progress of clip.mp4" />);
    expect(html).toContain('role="progressbar"');
    expect(html).toContain('aria-label="Progress of clip.mp4"');
    expect(html).toContain('aria-valuenow="50"');
    expect(html).not.toContain('aria-valuetext');
    expect(html).toMatch(/progress-bar__fill--sent" style="transform:scaleX\(0.5\)".*transform:scaleX\(0.4\)/);
  });

  it('says what it is given to say, while its fills move ahead', () => {
    const said = { sent: 40.5, text: '40% confirmed, 45% sent' };
    const html = renderToStaticMarkup(<ProgressBar confirmed={36} sent={45} max={90} label="x" said={said} />);
    expect(html).toContain('aria-valuenow="45"');
    expect(html).toContain('aria-valuetext="40% confirmed, 45% sent"');
    expect(html).toContain('scaleX(0.5)');
  });

  it('stays within its track for an unknown or overshooting total', () => {
    expect(renderToStaticMarkup(<ProgressBar confirmed={5} sent={5} max={0} label="x" />)).toContain('scaleX(0)');
    expect(renderToStaticMarkup(<ProgressBar confirmed={12} sent={12} max={10} label="x" />)).toContain(
      'aria-valuenow="100"',
    );
  });
});
