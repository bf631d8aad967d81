import { describe, expect, it } from 'vitest';
import { parseCommand } from '../../src/people/commands.js';

const SLUG = 'claim-warden';

describe('parseCommand (docs/protocol.md §16)', () => {
  it.each([
    ['/claim', { verb: 'claim' }],
    ['/CLAIM', { verb: 'claim' }],
    ['  /claim  ', { verb: 'claim' }],
    ['/release', { verb: 'release' }],
    ['/unclaim', { verb: 'release' }],
    ['/pin', { verb: 'pin' }],
    ['/unpin', { verb: 'unpin' }],
    ['/claim @Dana-Lee', { verb: 'claim', target: 'Dana-Lee' }],
    ['/release @dana', { verb: 'release', target: 'dana' }],
    ['@claim-warden claim', { verb: 'claim' }],
    ['@Claim-Warden /release', { verb: 'release' }],
    ['I can take this.\n\n/claim\n\nThanks!', { verb: 'claim' }],
    ['/claim\r\n', { verb: 'claim' }],
    ['/claim\n/pin', { verb: 'claim' }],
    ['> quoted /claim\n\n/release', { verb: 'release' }],
    ['> quoted\n>\n/release', { verb: 'release' }],
    ['<pre>\n/claim\n</pre>\n/release', { verb: 'release' }],
    ['<precious>\n/release', { verb: 'release' }],
  ])('reads %j', (body, command) => {
    expect(parseCommand(body, SLUG)).toEqual(command);
  });

  it.each([
    ['not on a line of its own', 'please /claim this'],
    ['a longer word', '/claimed'],
    ['another app', '@other-app claim'],
    ['a fenced block', '```\n/claim\n```'],
    ['a tilde fence', '~~~sh\n/claim\n~~~'],
    ['a fence left open', '```\n/claim'],
    ['indented code', '    /claim'],
    ['a tab', '\t/claim'],
    ['a quote', '> /claim'],
    ['a lazy continuation line of a quote', '> I will take it:\n/claim'],
    ['a lazy continuation line of a nested quote', '> > said:\n/claim'],
    ['a pre element', '<pre>\n/claim\n</pre>'],
    ['a pre element with attributes', '<PRE class="x">\n\n/claim\n\n</PRE>'],
    ['a pre element left open', 'see:\n<pre>\n/claim'],
    ['a textarea', '<textarea>\n/claim\n</textarea>'],
    ['an HTML comment', '<!-- /claim -->'],
    ['a multi-line HTML comment', '<!--\n/claim\n-->'],
    ['a line an HTML comment touches', '/claim <!-- later -->'],
    ['a target on pin', '/pin @dana'],
    ['a bad login', '/claim @-dana'],
    ['two targets', '/claim @a @b'],
  ])('ignores a command in %s', (_name, body) => {
    expect(parseCommand(body, SLUG)).toBeNull();
  });

  it('a fence closes only with its own character, at least as long', () => {
    expect(parseCommand('````\n```\n/claim\n````\n/release', SLUG)).toEqual({ verb: 'release' });
  });

  it('a slug with regex characters is matched literally', () => {
    expect(parseCommand('@a.b claim', 'a.b')).toEqual({ verb: 'claim' });
    expect(parseCommand('@axb claim', 'a.b')).toBeNull();
  });
});
