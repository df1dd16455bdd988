// oclif's command_not_found hook (package.json oclif.hooks; scripts/bundle.mjs bundles it): what
// oclif cannot run is answered as kubectl (cobra) answers it, in unknown-command.ts's words.

import { loadHelpClass, type Hook } from '@oclif/core';
import { displayName } from '../program-name.js';
import { flagsFirstMessage, reportUnknownCommand, visibleCommandNames } from '../unknown-command.js';

/**
 * oclif's command_not_found hook. With a space as topic separator oclif joins the words that are
 * not a command into one id ("explian:shop-web" for `explian shop-web`): what was typed is read
 * from the command line itself, as a word may hold a colon.
 */
const hook: Hook<'command_not_found'> = async ({ config, id, argv }) => {
  const words = id.split(':');
  const typed = process.argv.slice(2);
  if (typed[0]?.startsWith('-') && typed[0] !== '-') {
    process.stderr.write(flagsFirstMessage(typed, visibleCommandNames(config.commands), displayName()));
    process.exitCode = 1;
    return;
  }
  if (words[0] === 'help') {
    // `help`, `help diff`: cobra's help command
    const Help = await loadHelpClass(config);
    await new Help(config, config.pjson.oclif.helpOptions).showHelp([...words.slice(1), ...(argv ?? []).filter((a) => a !== 'help')]);
    return;
  }
  reportUnknownCommand(typed[0] ?? words[0], config.commands);
};

export default hook;
