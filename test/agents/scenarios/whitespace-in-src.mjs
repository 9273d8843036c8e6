// The whitespace scenario launched in src/: nested files at start, how entries are joined.
import whitespace from './whitespace.mjs';

export default { ...whitespace, name: 'whitespace-in-src', launchDir: 'src' };
