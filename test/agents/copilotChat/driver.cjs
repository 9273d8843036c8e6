// The fidelity suite's driver inside the VS Code server (loaded as extensionTestsPath): makes
// the built-in Copilot Chat usable without a GitHub sign-in, then sends one agent-mode request
// with the fake model as the chat model. The runner (scripts/agents/copilotChat.mjs) watches
// the fake model and ends the run; this file only reports progress to CC_DRIVER_LOG.
/* eslint-disable @typescript-eslint/no-require-imports -- loaded by VS Code as CommonJS, where `vscode` is only reachable through require */
const fs = require('node:fs');
const vscode = require('vscode');

const t0 = Date.now();
const log = (line) => fs.appendFileSync(process.env.CC_DRIVER_LOG, `${line} (${Date.now() - t0} ms)\n`);
const sleep = (ms) => new Promise((resolve) => setTimeout(resolve, ms));

async function until(what, test, ms) {
  for (const end = Date.now() + ms; Date.now() < end; await sleep(250)) {
    const value = await test();
    if (value) return value;
  }
  throw new Error(`timed out waiting for ${what}`);
}

exports.run = async () => {
  try {
    // On a first start the workbench disables the built-in chat extension until chat set-up has
    // run (ensureChatExtensionInitialDisabledState); "Enable All Extensions" turns it back on,
    // and a bring-your-own-key model then lets chat skip the set-up (and the sign-in) altogether.
    // The extensions workbench registers that command a moment after the extension host starts:
    // on a loaded machine the driver can run first ("command ... not found"), so wait for it.
    await until('the Enable All Extensions command', async () => (await vscode.commands.getCommands(true)).includes('workbench.extensions.action.enableAll'), 60_000);
    await vscode.commands.executeCommand('workbench.extensions.action.enableAll');
    log('enabled');
    await until('Copilot Chat to start', () => vscode.extensions.getExtension('GitHub.copilot-chat'), 60_000);
    const model = await until('the fake model in the model list', async () => (await vscode.lm.selectChatModels({ vendor: 'customendpoint' }))[0], 60_000);
    log(`model ${model.vendor}/${model.id}; Copilot Chat ${vscode.extensions.getExtension('GitHub.copilot-chat').packageJSON.version}`);
    await vscode.commands.executeCommand('workbench.action.chat.open', {
      query: process.env.CC_QUERY,
      mode: 'agent',
      modelSelector: { vendor: model.vendor, id: model.id },
      // The file the user works on, attached as context: what `applyTo` patterns are matched against.
      attachFiles: process.env.CC_ATTACH ? [vscode.Uri.file(process.env.CC_ATTACH)] : [],
    });
    log('sent');
  } catch (err) {
    log(`error ${err && err.stack ? err.stack : err}`);
  }
  // The runner ends the server once the fake model has answered the last turn.
  await sleep(10 * 60_000);
};
