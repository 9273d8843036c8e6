// A fake model API on 127.0.0.1 that speaks the four wire protocols the agent CLIs use, so
// their real requests can be captured:
//   - Anthropic Messages (Claude Code): POST /v1/messages[?beta=true], SSE or JSON;
//     POST /v1/messages/count_tokens.
//   - OpenAI Responses (Codex): POST …/responses, SSE.
//   - Gemini (Gemini CLI): POST …/models/<m>:streamGenerateContent?alt=sse,
//     …:generateContent (incl. the router's JSON-mode call), …:countTokens.
//   - OpenAI chat completions (Copilot CLI): POST …/chat/completions, SSE or JSON.
//   - Anything else (model lists, …): a minimal empty answer, recorded too.
//
// Scripted per run: `script.readFile` (absolute path) makes the first *main-turn* request
// (one that offers the agent's file-reading tool) answer with a call of that tool on that
// file; every other request gets the plain text "ok" and ends the turn.
//
// Never listens on anything but 127.0.0.1.
/* eslint-disable @typescript-eslint/no-explicit-any -- request and answer bodies are the agents' JSON, untyped by nature */
import * as http from 'node:http';

/** One HTTP call the fake model received. */
export interface FakeCall {
  method: string;
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
  raw: string;
  at: number;
  answer: string;
}

/** A tool call the fake model answered with. */
export interface FakeToolCall {
  protocol: Protocol;
  name: string;
  args: any;
}

export type Protocol = 'anthropic' | 'responses' | 'gemini' | 'chat';

export interface FakeModel {
  port: number;
  url: string;
  calls: FakeCall[];
  toolCalls: FakeToolCall[];
  close(): Promise<void>;
}

interface ReadTool {
  name: string;
  pathArg: string;
  type?: string;
  schema?: any;
}

/** Tool names that read one file, per protocol (looked up in the tools each request offers). */
const READ_TOOLS: Record<Protocol, string[]> = {
  anthropic: ['Read'],
  gemini: ['read_file'],
  chat: ['view', 'read_file', 'read', 'str_replace_editor'],
  responses: ['shell', 'exec_command', 'local_shell', 'shell_command'],
};

/** Start the fake model; `readFile` (absolute) is the file the first main turn asks to read. */
export async function startFakeModel(script: { readFile?: string } = {}): Promise<FakeModel> {
  const model = new FakeModelState(script);
  const server = http.createServer((req, res) => model.handle(req, res));
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', resolve);
  });
  const port = (server.address() as { port: number }).port;
  return {
    port,
    url: `http://127.0.0.1:${port}`,
    calls: model.calls,
    toolCalls: model.toolCalls,
    close: () => new Promise<void>((resolve) => {
      server.closeAllConnections?.();
      server.close(() => resolve());
    }),
  };
}

/** What the fake model has been sent and has answered. */
class FakeModelState {
  readonly calls: FakeCall[] = [];
  readonly toolCalls: FakeToolCall[] = [];
  private toolCallDone = false;
  private seq = 0;

  constructor(private readonly script: { readFile?: string }) {}

  /** Record a request, then answer it. */
  handle(req: http.IncomingMessage, res: http.ServerResponse): void {
    const chunks: Buffer[] = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      let body: any = null;
      if (raw) {
        try { body = JSON.parse(raw); } catch { body = raw; }
      }
      const call: FakeCall = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body, raw, at: Date.now(), answer: '' };
      this.calls.push(call);
      try {
        this.route(req, res, call);
      } catch (e) {
        call.answer = 'error: ' + (e as Error).message;
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: { message: String((e as Error).message) } }));
      }
    });
  }

  /** Should this main-turn request be answered with a read of script.readFile? */
  private wantToolCall(protocol: Protocol, body: any): ReadTool | null {
    if (!this.script.readFile || this.toolCallDone) return null;
    const tool = findReadTool(protocol, body);
    if (!tool) return null;
    this.toolCallDone = true;
    return tool;
  }

  /** The read to answer this main-turn request with, if any, recorded on the call and in toolCalls. */
  private readCall(protocol: Protocol, body: any, call: FakeCall): { tool: ReadTool; args: any } | null {
    const tool = this.wantToolCall(protocol, body);
    call.answer = tool ? `tool:${tool.name}` : 'text';
    if (!tool) return null;
    const args = protocol === 'responses' ? shellArgs(tool, this.script.readFile!) : { ...lineRange(tool.schema), [tool.pathArg]: this.script.readFile };
    this.toolCalls.push({ protocol, name: tool.name, args });
    return { tool, args };
  }

  /** Model turns of the four protocols, then token counts and model lists; anything else is a 404. */
  private route(req: http.IncomingMessage, res: http.ServerResponse, call: FakeCall): void {
    const p = new URL(req.url ?? '/', 'http://127.0.0.1').pathname;
    const body: any = call.body && typeof call.body === 'object' ? call.body : {};
    const id = ++this.seq;
    if (req.method === 'POST' && /\/messages\/count_tokens$/.test(p)) {
      call.answer = 'count_tokens';
      return json(res, { input_tokens: 1 });
    }
    if (req.method === 'POST' && /\/messages$/.test(p)) {
      const read = this.readCall('anthropic', body, call);
      return anthropic(res, body, id, read && { name: read.tool.name, args: read.args });
    }
    if (req.method === 'POST' && /\/responses$/.test(p)) {
      const read = this.readCall('responses', body, call);
      return responses(res, body, id, read && { name: read.tool.name, args: read.args, type: read.tool.type });
    }
    if (req.method === 'POST' && /:(streamGenerateContent|generateContent)$/.test(p)) return this.geminiTurn(res, p, body, call);
    if (req.method === 'POST' && /:countTokens$/.test(p)) {
      call.answer = 'countTokens';
      return json(res, { totalTokens: 1 });
    }
    if (req.method === 'POST' && /\/chat\/completions$/.test(p)) {
      const read = this.readCall('chat', body, call);
      return chat(res, body, id, read && { name: read.tool.name, args: read.args });
    }
    if (req.method === 'GET' && /\/models$/.test(p)) {
      call.answer = 'models';
      const model = { id: 'gpt-4.1', object: 'model', created: 0, owned_by: 'fake', name: 'models/gemini-2.5-pro', slug: 'gpt-4.1' };
      return json(res, { object: 'list', data: [model], models: [] });
    }
    if (req.method === 'GET' && /\/models\/[^/]+$/.test(p)) {
      call.answer = 'model';
      return json(res, { id: decodeURIComponent(p.split('/').pop() ?? ''), object: 'model', created: 0, owned_by: 'fake' });
    }
    call.answer = '404';
    res.writeHead(404, { 'content-type': 'application/json' });
    res.end(JSON.stringify({ error: { type: 'not_found_error', message: `fake model: no route for ${req.method} ${p}` } }));
  }

  /** A Gemini turn: JSON for a structured side request (a sample of its schema), else a main turn. */
  private geminiTurn(res: http.ServerResponse, p: string, body: any, call: FakeCall): void {
    const stream = /:streamGenerateContent$/.test(p);
    const cfg = body.generationConfig || body.config || {};
    if (cfg.responseMimeType === 'application/json' || cfg.responseJsonSchema || cfg.responseSchema) {
      call.answer = 'json';
      const obj = sampleFromSchema(cfg.responseJsonSchema || cfg.responseSchema || {});
      return gemini(res, stream, JSON.stringify(obj), null);
    }
    const read = this.readCall('gemini', body, call);
    return gemini(res, stream, 'ok', read && { name: read.tool.name, args: read.args });
  }
}

/** Find the file-reading tool offered in a request and the name of its path argument. */
export function findReadTool(protocol: Protocol, body: any): ReadTool | null {
  const tools = listTools(protocol, body);
  if (!tools.length) return null;
  for (const want of READ_TOOLS[protocol]) {
    const t = tools.find((x: { name: string }) => x.name === want);
    if (!t) continue;
    if (protocol === 'responses') return { name: t.name, pathArg: 'command', type: t.type, schema: t.schema };
    return { name: t.name, pathArg: pathArgOf(t.schema), schema: t.schema };
  }
  return null;
}

/** Tools of a request as {name, schema, type}. */
export function listTools(protocol: Protocol, body: any): Array<{ name: string; schema: any; type?: string }> {
  if (!body || typeof body !== 'object') return [];
  if (protocol === 'gemini') {
    const out: Array<{ name: string; schema: any }> = [];
    for (const t of body.tools || []) {
      for (const d of t.functionDeclarations || []) out.push({ name: d.name, schema: d.parametersJsonSchema || d.parameters || {} });
    }
    return out;
  }
  return (body.tools || []).map((t: any) => {
    if (t.function) return { name: t.function.name, schema: t.function.parameters || {}, type: t.type };
    return { name: t.name || t.type, schema: t.input_schema || t.parameters || {}, type: t.type };
  });
}

function pathArgOf(schema: any): string {
  const props = Object.keys(schema?.properties || schema?.Properties || {});
  const required: string[] = schema?.required || [];
  const pathy = (k: string) => /path|file/i.test(k);
  return required.find(pathy) || props.find(pathy) || required[0] || props[0] || 'path';
}

/**
 * The whole file for a read tool that requires a line range besides the path (Copilot Chat's
 * `read_file` requires `startLine` and `endLine`, 1-based and inclusive).
 */
function lineRange(schema: any): Record<string, number> {
  const out: Record<string, number> = {};
  for (const key of schema?.required || []) {
    if (!['integer', 'number'].includes(schema.properties?.[key]?.type)) continue;
    out[key] = /end|last|limit|count/i.test(key) ? 100_000 : 1;
  }
  return out;
}

function shellArgs(tool: ReadTool, file: string): any {
  const props = tool.schema?.properties || {};
  if (tool.type === 'local_shell') return { command: ['cat', file] };
  if ('cmd' in props) return { cmd: `cat '${file}'` };
  if ('command' in props && props.command.type === 'string') return { command: `cat '${file}'` };
  return { command: ['cat', file] };
}

/** A minimal JSON value satisfying a (simple) JSON schema — for Gemini's JSON-mode calls. */
export function sampleFromSchema(schema: any): any {
  if (!schema || typeof schema !== 'object') return {};
  const type = String(schema.type || '').toLowerCase();
  if (schema.enum?.length) {
    // The router's model_choice: prefer the flash model so the run stays cheap in a real world.
    return schema.enum.find((v: unknown) => /flash/i.test(String(v))) ?? schema.enum[0];
  }
  if (type === 'object' || schema.properties) {
    const out: Record<string, any> = {};
    for (const [k, v] of Object.entries(schema.properties || {})) out[k] = sampleFromSchema(v);
    return out;
  }
  if (type === 'array') return [];
  if (type === 'boolean') return false;
  if (type === 'number' || type === 'integer') {
    const lo = schema.minimum ?? (schema.exclusiveMinimum !== undefined ? schema.exclusiveMinimum + 1 : undefined);
    return lo ?? schema.maximum ?? 0;
  }
  return 'ok';
}

function json(res: http.ServerResponse, obj: unknown): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  res.end(JSON.stringify(obj));
}

function sse(res: http.ServerResponse) {
  res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-cache', connection: 'keep-alive' });
  return {
    event(name: string, data: unknown) { res.write(`event: ${name}\ndata: ${JSON.stringify(data)}\n\n`); },
    data(data: unknown) { res.write(`data: ${typeof data === 'string' ? data : JSON.stringify(data)}\n\n`); },
    end() { res.end(); },
  };
}

// --- Anthropic Messages -------------------------------------------------------------------

type ToolAnswer = { name: string; args: any; type?: string } | null;

function anthropic(res: http.ServerResponse, body: any, id: number, tool: ToolAnswer): void {
  const model = body.model || 'claude-fake';
  const usage = { input_tokens: 1, output_tokens: 1, cache_creation_input_tokens: 0, cache_read_input_tokens: 0 };
  const content = tool
    ? [{ type: 'tool_use', id: `toolu_fake_${id}`, name: tool.name, input: tool.args }]
    : [{ type: 'text', text: 'ok' }];
  const stop = tool ? 'tool_use' : 'end_turn';
  if (!body.stream) {
    return json(res, { id: `msg_fake_${id}`, type: 'message', role: 'assistant', model, content, stop_reason: stop, stop_sequence: null, usage });
  }
  const s = sse(res);
  s.event('message_start', { type: 'message_start', message: { id: `msg_fake_${id}`, type: 'message', role: 'assistant', model, content: [], stop_reason: null, stop_sequence: null, usage } });
  if (tool) {
    s.event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'tool_use', id: `toolu_fake_${id}`, name: tool.name, input: {} } });
    s.event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'input_json_delta', partial_json: JSON.stringify(tool.args) } });
  } else {
    s.event('content_block_start', { type: 'content_block_start', index: 0, content_block: { type: 'text', text: '' } });
    s.event('content_block_delta', { type: 'content_block_delta', index: 0, delta: { type: 'text_delta', text: 'ok' } });
  }
  s.event('content_block_stop', { type: 'content_block_stop', index: 0 });
  s.event('message_delta', { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: 1 } });
  s.event('message_stop', { type: 'message_stop' });
  s.end();
}

// --- OpenAI Responses (Codex) ----------------------------------------------------------------

function responses(res: http.ServerResponse, body: any, id: number, tool: ToolAnswer): void {
  const model = body.model || 'gpt-fake';
  const respId = `resp_fake_${id}`;
  const usage = { input_tokens: 1, input_tokens_details: { cached_tokens: 0 }, output_tokens: 1, output_tokens_details: { reasoning_tokens: 0 }, total_tokens: 2 };
  let item: any;
  if (tool && tool.type === 'local_shell') {
    item = { type: 'local_shell_call', id: `lsh_fake_${id}`, call_id: `call_fake_${id}`, status: 'completed', action: { type: 'exec', command: tool.args.command } };
  } else if (tool) {
    item = { type: 'function_call', id: `fc_fake_${id}`, call_id: `call_fake_${id}`, name: tool.name, arguments: JSON.stringify(tool.args), status: 'completed' };
  } else {
    item = { type: 'message', id: `msg_fake_${id}`, role: 'assistant', status: 'completed', content: [{ type: 'output_text', text: 'ok', annotations: [] }] };
  }
  const response = { id: respId, object: 'response', created_at: 0, model, status: 'in_progress', output: [] };
  if (body.stream === false) {
    return json(res, { ...response, status: 'completed', output: [item], usage });
  }
  const s = sse(res);
  s.event('response.created', { type: 'response.created', response });
  s.event('response.in_progress', { type: 'response.in_progress', response });
  s.event('response.output_item.added', { type: 'response.output_item.added', output_index: 0, item: tool ? item : { ...item, status: 'in_progress', content: [] } });
  if (!tool) {
    s.event('response.content_part.added', { type: 'response.content_part.added', item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: '', annotations: [] } });
    s.event('response.output_text.delta', { type: 'response.output_text.delta', item_id: item.id, output_index: 0, content_index: 0, delta: 'ok' });
    s.event('response.output_text.done', { type: 'response.output_text.done', item_id: item.id, output_index: 0, content_index: 0, text: 'ok' });
    s.event('response.content_part.done', { type: 'response.content_part.done', item_id: item.id, output_index: 0, content_index: 0, part: { type: 'output_text', text: 'ok', annotations: [] } });
  }
  s.event('response.output_item.done', { type: 'response.output_item.done', output_index: 0, item });
  s.event('response.completed', { type: 'response.completed', response: { ...response, status: 'completed', output: [item], usage } });
  s.end();
}

// --- Gemini ------------------------------------------------------------------------------------

function gemini(res: http.ServerResponse, stream: boolean, text: string, tool: ToolAnswer): void {
  const part = tool ? { functionCall: { name: tool.name, args: tool.args } } : { text };
  const chunk = {
    candidates: [{ content: { role: 'model', parts: [part] }, finishReason: 'STOP', index: 0 }],
    usageMetadata: { promptTokenCount: 1, candidatesTokenCount: 1, totalTokenCount: 2 },
    modelVersion: 'gemini-fake',
  };
  if (!stream) return json(res, chunk);
  const s = sse(res);
  s.data(chunk);
  s.end();
}

// --- OpenAI chat completions (Copilot CLI) --------------------------------------------------

function chat(res: http.ServerResponse, body: any, id: number, tool: ToolAnswer): void {
  const model = body.model || 'gpt-4.1';
  const base = { id: `chatcmpl-fake-${id}`, object: 'chat.completion.chunk', created: 0, model };
  const usage = { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 };
  const toolCall = tool && { id: `call_fake_${id}`, type: 'function', function: { name: tool.name, arguments: JSON.stringify(tool.args) } };
  if (!body.stream) {
    const message = tool ? { role: 'assistant', content: null, tool_calls: [toolCall] } : { role: 'assistant', content: 'ok' };
    return json(res, { ...base, object: 'chat.completion', choices: [{ index: 0, message, finish_reason: tool ? 'tool_calls' : 'stop' }], usage });
  }
  const s = sse(res);
  if (tool) {
    s.data({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: null, tool_calls: [{ index: 0, ...toolCall }] }, finish_reason: null }] });
    s.data({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'tool_calls' }] });
  } else {
    s.data({ ...base, choices: [{ index: 0, delta: { role: 'assistant', content: 'ok' }, finish_reason: null }] });
    s.data({ ...base, choices: [{ index: 0, delta: {}, finish_reason: 'stop' }] });
  }
  s.data({ ...base, choices: [], usage });
  s.data('[DONE]');
  s.end();
}
