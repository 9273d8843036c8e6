// The fidelity comparator, on hand-made request bodies shaped like the real agents' (no agent runs).
/* eslint-disable @typescript-eslint/no-explicit-any -- hand-made request bodies */
import assert from 'node:assert/strict';
import { describe, it } from 'node:test';
import { compare, pickRequest, segmentsOf } from '../../../src/verify/compare';

const T = '/tmp/il-agents-XYZ';
const reminder = (entries: string[]) =>
  '<system-reminder>\nCodebase and user instructions are shown below. Be sure to adhere to these instructions. IMPORTANT: These instructions OVERRIDE any default behavior and you MUST follow them exactly as written.\n\n' +
  entries.join('\n\n') + '\n</system-reminder>';
const rootEntry = `Contents of ${T}/repo/CLAUDE.md (project instructions, checked into the codebase):\n\n# Root\n\nUse tabs everywhere.`;
const userEntry = `Contents of ${T}/home/.claude/CLAUDE.md (user's private global instructions for all projects):\n\nUser global rule text.`;
const nested = `<system-reminder>\nContents of ${T}/repo/src/CLAUDE.md:\n\nNested rule for src.\n\n</system-reminder>\n`;

/** A Claude Code-shaped conversation: start request, then the one after a Read. */
function claudeRequests({ start = [userEntry, rootEntry], after = [nested] } = {}) {
  const first: any = {
    model: 'claude-x',
    system: [{ type: 'text', text: 'You are Claude Code.' }],
    tools: [{ name: 'Read', input_schema: { type: 'object', properties: { file_path: { type: 'string' } } } }],
    messages: [{ role: 'user', content: [{ type: 'text', text: reminder(start) }, { type: 'text', text: 'hi' }] }],
  };
  const second = structuredClone(first);
  second.messages.push(
    { role: 'assistant', content: [{ type: 'tool_use', id: 't1', name: 'Read', input: { file_path: `${T}/repo/src/x.ts` } }] },
    { role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '1\texport const x = 1;\n' }, ...after.map((text) => ({ type: 'text', text }))] },
  );
  return [first, second];
}

const startParts = [
  { where: 'user', text: reminder([userEntry, rootEntry]) },
];
const instructionTexts = [
  { path: 'CLAUDE.md', text: '# Root\n\nUse tabs everywhere.\n' },
  { path: '~/.claude/CLAUDE.md', text: 'User global rule text.\n' },
  { path: 'src/CLAUDE.md', text: 'Nested rule for src.\n' },
];

describe('compare', () => {
  it('passes when every part is in its place and covers all instruction text', () => {
    const r = compare({ requests: claudeRequests(), parts: [...startParts, { where: 'after-tool-result', text: nested }], instructionTexts, tmpRoot: T });
    assert.equal(r.ok, true, r.report);
    assert.equal(r.requestIndex, 1);
  });

  it('passes on a start-only run with per-file parts in order', () => {
    const [first] = claudeRequests();
    const parts = [{ where: 'user', text: userEntry }, { where: 'user', text: rootEntry }];
    const r = compare({ requests: [first], parts, instructionTexts: instructionTexts.slice(0, 2), tmpRoot: T });
    assert.equal(r.ok, true, r.report);
  });

  it('fails on one changed character and shows where', () => {
    const parts = [{ where: 'user', text: reminder([userEntry, rootEntry.replace('Use tabs', 'Use tobs')]) }, { where: 'after-tool-result', text: nested }];
    const r = compare({ requests: claudeRequests(), parts, instructionTexts, tmpRoot: T });
    assert.equal(r.ok, false);
    const e = r.errors.find((x) => x.kind === 'missing-part');
    assert.ok(e, r.report);
    assert.match(e.message, /longest common prefix: \d+ of \d+ chars/);
    assert.match(e.message, /expected: .*⟨HERE⟩ "obs everywhere\./);
    assert.match(e.message, /actual: .*⟨HERE⟩ "abs everywhere\./);
    // The real text is then uncovered as well.
    assert.ok(r.errors.some((x) => x.kind === 'uncovered-text' && x.message.includes('CLAUDE.md')), r.report);
  });

  it('fails on a trailing newline difference', () => {
    const parts = [...startParts, { where: 'after-tool-result', text: nested.replace('src.\n\n<', 'src.\n<') }];
    const r = compare({ requests: claudeRequests(), parts, instructionTexts, tmpRoot: T });
    assert.equal(r.ok, false);
    assert.match(r.report, /first difference at expected char/);
  });

  it('fails when the agent sent a part we did not predict (a missing part)', () => {
    const requests = claudeRequests({ start: [userEntry, rootEntry] });
    const parts = [{ where: 'user', text: reminder([userEntry, rootEntry]) }, { where: 'after-tool-result', text: nested }, { where: 'after-tool-result', text: `<system-reminder>\nContents of ${T}/repo/.claude/rules/b.md:\n\nRule b.\n\n</system-reminder>` }];
    const r = compare({ requests, parts, instructionTexts, tmpRoot: T });
    assert.equal(r.ok, false);
    const e = r.errors.find((x) => x.kind === 'missing-part');
    assert.match(e!.message, /part 2 \(after-tool-result\) not found verbatim/);
  });

  it('fails when a part is in the wrong place and says where it is', () => {
    const parts = [...startParts, { where: 'tool-result', text: nested }];
    const r = compare({ requests: claudeRequests(), parts, instructionTexts, tmpRoot: T });
    assert.equal(r.ok, false);
    assert.match(r.report, /found verbatim in after-tool-result at messages\[2\]\.content\[1\]\.text instead/);
  });

  it('fails when parts are in the wrong order', () => {
    const [first] = claudeRequests();
    const parts = [{ where: 'user', text: rootEntry }, { where: 'user', text: userEntry }];
    const r = compare({ requests: [first], parts, instructionTexts: [], tmpRoot: T });
    assert.equal(r.ok, false);
    assert.equal(r.errors[0].kind, 'order', r.report);
  });

  it('fails when a file text is in the request but in no part', () => {
    // Our renderer forgot the on-read file.
    const r = compare({ requests: claudeRequests(), parts: startParts, instructionTexts, tmpRoot: T });
    assert.equal(r.ok, false);
    const e = r.errors.find((x) => x.kind === 'uncovered-text');
    assert.ok(e, r.report);
    assert.match(e.message, /text of src\/CLAUDE\.md is in the request but in no part: "Nested rule for src\." at after-tool-result messages\[2\]\.content\[1\]\.text/);
    assert.match(e.message, /Contents of <tmp>\/repo\/src\/CLAUDE\.md/, 'the temp dir is shown as <tmp>');
  });

  it('notices HTML-escaped instruction text (Copilot on read) as carried', () => {
    const body = {
      model: 'gpt-4.1', tools: [{ type: 'function', function: { name: 'view', parameters: {} } }],
      messages: [
        { role: 'system', content: 'base\n\n<custom_instruction>\nRoot text here.\n</custom_instruction>\n' },
        { role: 'user', content: 'hi' },
        { role: 'assistant', content: null, tool_calls: [{ id: 'c', type: 'function', function: { name: 'view', arguments: '{}' } }] },
        { role: 'tool', tool_call_id: 'c', content: 'x' },
        { role: 'user', content: '\n<system_reminder>\nCustom instructions from a/AGENTS.md. Apply these to any code you write here:\n\nSay &quot;hello&quot; politely.\n</system_reminder>' },
      ],
    };
    const parts = [{ where: 'system', text: '<custom_instruction>\nRoot text here.\n</custom_instruction>' }];
    const r = compare({ requests: [body], parts, instructionTexts: [{ path: 'a/AGENTS.md', text: 'Say "hello" politely.\n' }] });
    assert.equal(r.ok, false);
    assert.match(r.report, /text of a\/AGENTS\.md is in the request but in no part: "Say &quot;hello&quot; politely\."/);
  });

  it('maps the four request shapes to where', () => {
    const codex = { tools: [{ type: 'function', name: 'exec_command' }], instructions: '', input: [
      { type: 'message', role: 'developer', content: [{ type: 'input_text', text: 'dev' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: '# AGENTS.md instructions for /r' }] },
      { type: 'message', role: 'user', content: [{ type: 'input_text', text: 'hi' }] },
      { type: 'function_call', name: 'exec_command', arguments: '{}', call_id: 'c' },
      { type: 'function_call_output', call_id: 'c', output: 'file text' },
    ] };
    const wheres = (b: any, p: any) => segmentsOf(b, p).segments.map((s) => `${s.where}:${s.path}`);
    assert.deepEqual(wheres(codex, 'responses'), ['system:input[0].content[0].text', 'user:input[1].content[0].text', 'other:input[2].content[0].text', 'tool-result:input[4].output']);
    const gemini = { systemInstruction: { parts: [{ text: 'sys' }] }, contents: [
      { role: 'user', parts: [{ text: '<session_context>' }, { text: 'hi' }] },
      { role: 'model', parts: [{ functionCall: { name: 'read_file', args: {} } }] },
      { role: 'user', parts: [{ functionResponse: { name: 'read_file', response: { output: 'x\n\n--- Newly Discovered Project Context ---' } } }] },
    ] };
    assert.deepEqual(wheres(gemini, 'gemini'), ['system:systemInstruction.parts[0].text', 'user:contents[0].parts[0].text', 'user:contents[0].parts[1].text', 'tool-result:contents[2].parts[0].functionResponse.response.output']);
    // Gemini's router call (no tools) is skipped in favour of the main turn.
    const router = { systemInstruction: { parts: [{ text: 'router' }] }, contents: gemini.contents.slice(0, 1), generationConfig: { responseMimeType: 'application/json' } };
    const main = { ...gemini, contents: gemini.contents.slice(0, 1), tools: [{ functionDeclarations: [{ name: 'read_file' }] }] };
    assert.equal(pickRequest([router, main]).index, 1);
  });

  it('compares against the conversation turns only, not a side request without tools', () => {
    // Claude Code counts the tokens of a file it read in a request with no tools, sent to the same
    // endpoint before the next turn; that request carries the tool result but not the reminders.
    const [first, second] = claudeRequests();
    const side = { model: 'claude-x', messages: [{ role: 'user', content: [{ type: 'tool_result', tool_use_id: 't1', content: '1\texport const x = 1;\n' }] }] };
    assert.equal(pickRequest([first, side, second]).index, 2);
    const r = compare({ requests: [first, side, second], parts: [...startParts, { where: 'after-tool-result', text: nested }], instructionTexts, tmpRoot: T, agent: 'claude-code' });
    assert.equal(r.ok, true, r.report);
    assert.equal(r.requestIndex, 2);
  });

  it('reports an empty capture clearly', () => {
    const r = compare({ requests: [], parts: startParts });
    assert.equal(r.ok, false);
    assert.equal(r.errors[0].kind, 'no-request');
  });
});
