import {describe, expect, test} from 'vitest';
import {UsageError} from '../../source/text/errors.js';
import {parseJsonWithLines} from '../../source/json/json-lines.js';
import {configLocation, describeSource, keyFilePath, parseProfileConfig, profileEnvironment, selectProfile} from '../../source/config/profiles.js';

const file = '/home/u/.config/pagewalk/config.json';

const valid = `{
	"default": "work",
	"profiles": {
		"work": {
			"base_url": "https://api.coinbase.com",
			"commerce_url": "https://api.commerce.coinbase.com",
			"api_version": "2021-01-01",
			"account": {"key_file": "~/keys/cdp.json"},
			"commerce": {"command": ["op", "read", "op://Work/Commerce/credential"]}
		},
		"staging": {
			"base_url": "http://127.0.0.1:4010/prefix",
			"account": {"env": "STAGING_TOKEN"}
		}
	}
}
`;

/** The sentence for `text`, asserted to be one UsageError line naming the file. */
function problem(text: string): string {
	try {
		parseProfileConfig(text, file);
	} catch (error: unknown) {
		expect(error).toBeInstanceOf(UsageError);
		const {message} = error as Error;
		expect(message).not.toContain('\n');
		expect(message).toContain(`'${file}'`);
		return message;
	}

	throw new Error('expected the config to be refused');
}

describe('the config file', () => {
	test('a valid file gives its profiles, sources and default', () => {
		const config = parseProfileConfig(valid, file);
		expect(config.defaultProfile).toBe('work');
		expect(config.profiles.map((profile) => profile.name)).toEqual(['work', 'staging']);
		const [work, staging] = config.profiles;
		expect(work).toMatchObject({
			line: 4,
			baseUrl: 'https://api.coinbase.com/',
			commerceUrl: 'https://api.commerce.coinbase.com/',
			apiVersion: '2021-01-01',
			credentials: {
				account: {kind: 'key-file', path: '~/keys/cdp.json', line: 8},
				commerce: {kind: 'command', argv: ['op', 'read', 'op://Work/Commerce/credential'], line: 9},
			},
		});
		expect(staging).toMatchObject({baseUrl: 'http://127.0.0.1:4010/prefix', credentials: {account: {kind: 'env', name: 'STAGING_TOKEN'}}});
		expect(staging!.apiVersion).toBeUndefined();
	});

	test('an empty object is a config without profiles; a byte order mark is fine', () => {
		expect(parseProfileConfig('\uFEFF{}', file)).toEqual({file, profiles: []});
	});

	test.each([
		['a missing comma', '{\n"profiles": {\n"a": {}\n"b": {}\n}\n}', 4, /line 4 is not valid JSON \(expected ',' or '}'/],
		['a trailing comma', '{\n"profiles": {\n"a": {},\n}\n}', 4, /no trailing comma/],
		['a comment', '{\n// mine\n}', 2, /JSON has no comments/],
		['single quotes', '{\n\'profiles\': {}}', 2, /double quotes/],
		['an unterminated string', '{\n"profiles": {"a\n": 1}}', 2, /closing quote/],
		['nothing after the start', '{\n"profiles": ', 2, /expected a value, found the end of the file/],
		['text after the end', '{}\n\n}', 3, /after the end of the document/],
		['a key twice', '{\n"profiles": {\n"a": {},\n"a": {}\n}\n}', 4, /"a" appears twice/],
		['an unknown top key', '{\n"profile": {}\n}', 2, /unknown key "profile" at the top \(known: default, profiles\)/],
		['an unknown profile key', '{"profiles": {\n"a": {\n"base-url": "https://x.example"\n}}}', 3, /unknown key "base-url" in the profile "a"/],
		['an unknown source key', '{"profiles": {"a": {\n"account": {"file": "k.json"}\n}}}', 2, /unknown key "file" in "account" \(known: env, key_file, command\)/],
		['two sources', '{"profiles": {"a": {\n"account": {"env": "A", "key_file": "k"}\n}}}', 2, /exactly one of "env", "key_file" or "command"/],
		['a key file for commerce', '{"profiles": {"a": {\n"commerce": {\n"key_file": "k"}}}}', 3, /"key_file" for the commerce API/],
		['a command as a string', '{"profiles": {"a": {"account": {\n"command": "op read x"}}}}', 2, /"command" to be a non-empty list of strings/],
		['an empty command', '{"profiles": {"a": {"account": {\n"command": []}}}}', 2, /non-empty list/],
		['a number in a command', '{"profiles": {"a": {"account": {"command": ["op",\n3]}}}}', 2, /every word of "command" to be a string, not a number/],
		['a bad variable name', '{"profiles": {"a": {"account": {\n"env": "MY-TOKEN"}}}}', 2, /environment variable name/],
		['a bad URL', '{"profiles": {"a": {\n"base_url": "ftp://x"}}}', 2, /"base_url" to be an http or https URL/],
		['a URL with a password', '{"profiles": {"a": {\n"base_url": "https://u:p@x.example"}}}', 2, /user name or password/],
		['a URL with a query', '{"profiles": {"a": {\n"commerce_url": "https://x.example/?a=1"}}}', 2, /without a query/],
		['a bad version', '{"profiles": {"a": {\n"api_version": "2021-02-30"}}}', 2, /YYYY-MM-DD/],
		['a profile that is a list', '{"profiles": {\n"a": []}}', 2, /the profile "a" to be an object/],
		['a profile name with spaces', '{"profiles": {\n"my work": {}}}', 2, /not a plain word/],
		['an unknown default', '{\n"default": "nope",\n"profiles": {"a": {}}}', 2, /default profile "nope" that it does not define/],
		['a list at the top', '[\n]', 1, /the whole file to be an object/],
	])('%s is one sentence naming the file and line', (_name, text, line, expected) => {
		const message = problem(text);
		expect(message).toMatch(new RegExp(`^In the config file '${file}', line ${line} `));
		expect(message).toMatch(expected);
	});

	test('a malformed value never echoes the file around it', () => {
		const message = problem('{"profiles": {"a": {"account": {"env": "SECRET_LOOKING_VALUE_abc123!"}}}}');
		expect(message).not.toContain('SECRET_LOOKING_VALUE_abc123!');
	});

	test('the line reader agrees with JSON.parse on values', () => {
		const text = '{"a": [1, -2.5e3, true, false, null, "x\\u00e9\\n"], "b": {}}';
		const node = parseJsonWithLines(text);
		expect(node.kind).toBe('object');
		const plain = (value: ReturnType<typeof parseJsonWithLines>): unknown => {
			switch (value.kind) {
				case 'object': {
					return Object.fromEntries(value.entries.map((entry) => [entry.key, plain(entry.value)]));
				}

				case 'array': {
					return value.items.map((item) => plain(item));
				}

				case 'null': {
					return null;
				}

				default: {
					return value.value;
				}
			}
		};

		expect(plain(node)).toEqual(JSON.parse(text));
	});
});

describe('where the config file is', () => {
	test('PAGEWALK_CONFIG first, then XDG_CONFIG_HOME, then ~/.config', () => {
		expect(configLocation({PAGEWALK_CONFIG: '/x/p.json', XDG_CONFIG_HOME: '/xdg', HOME: '/home/u'}, 'linux')).toEqual({path: '/x/p.json', explicit: true});
		expect(configLocation({XDG_CONFIG_HOME: '/xdg', HOME: '/home/u'}, 'linux')).toEqual({path: '/xdg/pagewalk/config.json', explicit: false});
		expect(configLocation({HOME: '/home/u'}, 'linux')).toEqual({path: '/home/u/.config/pagewalk/config.json', explicit: false});
		// The XDG spec: a relative XDG_CONFIG_HOME is ignored.
		expect(configLocation({XDG_CONFIG_HOME: 'rel', HOME: '/home/u'}, 'linux')?.path).toBe('/home/u/.config/pagewalk/config.json');
		expect(configLocation({}, 'linux')).toBeUndefined();
	});

	test('macOS: XDG_CONFIG_HOME when set, else Application Support', () => {
		expect(configLocation({XDG_CONFIG_HOME: '/xdg', HOME: '/Users/u'}, 'darwin')?.path).toBe('/xdg/pagewalk/config.json');
		expect(configLocation({HOME: '/Users/u'}, 'darwin')?.path).toBe('/Users/u/Library/Application Support/pagewalk/config.json');
	});

	test('a key file path: ~ is the home, a relative path sits next to the config file', () => {
		expect(keyFilePath('~/keys/k.json', file, '/home/u')).toBe('/home/u/keys/k.json');
		expect(keyFilePath('k.json', file, '/home/u')).toBe('/home/u/.config/pagewalk/k.json');
		expect(keyFilePath('/abs/k.json', file, '/home/u')).toBe('/abs/k.json');
	});
});

describe('which profile is in use', () => {
	const config = parseProfileConfig(valid, file);

	test('--profile, then PAGEWALK_PROFILE, then the default', () => {
		expect(selectProfile(config, 'staging', {PAGEWALK_PROFILE: 'work'})).toMatchObject({profile: {name: 'staging'}, how: '--profile'});
		expect(selectProfile(config, undefined, {PAGEWALK_PROFILE: 'staging'})).toMatchObject({profile: {name: 'staging'}, how: 'PAGEWALK_PROFILE'});
		expect(selectProfile(config, undefined, {})).toMatchObject({profile: {name: 'work'}, how: 'default'});
		expect(selectProfile(undefined, undefined, {})).toBeUndefined();
	});

	test('the default steps aside when the environment holds a credential; a named profile does not', () => {
		for (const name of ['COINBASE_ACCESS_TOKEN', 'COINBASE_COMMERCE_API_KEY', 'COINBASE_API_KEY_FILE', 'COINBASE_API_KEY_NAME']) {
			expect(selectProfile(config, undefined, {[name]: 'x'})).toBeUndefined();
		}

		expect(selectProfile(config, 'work', {COINBASE_ACCESS_TOKEN: 'x'})).toMatchObject({profile: {name: 'work'}});
		expect(selectProfile(config, undefined, {COINBASE_ACCESS_TOKEN: 'x', PAGEWALK_PROFILE: 'work'})).toMatchObject({profile: {name: 'work'}});
	});

	test('a name the file does not define is one sentence listing those it does', () => {
		expect(() => selectProfile(config, 'prod', {})).toThrow(new UsageError(`--profile 'prod' is not a profile in '${file}'; it defines work, staging.`));
		expect(() => selectProfile(config, undefined, {PAGEWALK_PROFILE: 'prod'})).toThrow(/^PAGEWALK_PROFILE 'prod' is not a profile/);
		expect(() => selectProfile(undefined, 'prod', {}, '/h/.config/pagewalk/config.json')).toThrow(/there is none at '\/h\/\.config\/pagewalk\/config\.json'/);
	});

	test('a typo of a profile name gets the name meant, as a flag\'s typo does', () => {
		expect(() => selectProfile(config, 'wrok', {})).toThrow(new UsageError(`--profile 'wrok' is not a profile in '${file}' (did you mean 'work'?); it defines work, staging.`));
		expect(() => selectProfile(config, 'stagin', {})).toThrow(/\(did you mean 'staging'\?\)/);
	});

	test('a profile replaces the base and credential variables of the shell, and sets its own', () => {
		const [work, staging] = config.profiles;
		const shell = {PAGEWALK_BASE_URL: 'https://shell.example', COINBASE_ACCESS_TOKEN: 'shell-token', COINBASE_API_PRIVATE_KEY: 'shell-key', STAGING_TOKEN: 's', PATH: '/bin'};
		expect(profileEnvironment(shell, staging!, 'account', {kind: 'token', value: 'from-profile'})).toEqual({STAGING_TOKEN: 's', PATH: '/bin', PAGEWALK_BASE_URL: 'http://127.0.0.1:4010/prefix', COINBASE_ACCESS_TOKEN: 'from-profile'});
		expect(profileEnvironment(shell, work!, 'account', {kind: 'key-file', path: '/k.json'})).toMatchObject({COINBASE_API_KEY_FILE: '/k.json', PAGEWALK_COMMERCE_URL: 'https://api.commerce.coinbase.com/'});
		expect(profileEnvironment(shell, work!, 'account', {kind: 'key-parts', name: 'n', privateKey: 'p'})).toMatchObject({COINBASE_API_KEY_NAME: 'n', COINBASE_API_PRIVATE_KEY: 'p'});
		expect(profileEnvironment(shell, work!, 'account', {kind: 'key-parts', name: 'n', privateKey: 'p'}).COINBASE_ACCESS_TOKEN).toBeUndefined();
		expect(profileEnvironment(shell, work!, 'commerce', {kind: 'token', value: 'ck'})).toMatchObject({COINBASE_COMMERCE_API_KEY: 'ck'});
	});

	test('a listing of sources names them and holds no value', () => {
		const [work, staging] = config.profiles;
		expect(describeSource(staging!.credentials.account!, {STAGING_TOKEN: 'canary-value'}).text).toBe('environment variable STAGING_TOKEN (set)');
		expect(describeSource(work!.credentials.commerce!, {}).text).toBe('command op (2 arguments, not run)');
		expect(describeSource({kind: 'command', argv: ['/opt/bin/pass', 'show', 'x'], line: 1}, {}).json).toEqual({source: 'command', program: 'pass', arguments: 2});
		expect(describeSource(work!.credentials.account!, {}).json).toEqual({source: 'key_file', path: '~/keys/cdp.json'});
	});
});
