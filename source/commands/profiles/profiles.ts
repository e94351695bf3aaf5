/**
 * `pagewalk profiles`: lists the config file's profiles. It reads the file and
 * nothing else: no credential command runs, no key file is opened, and no
 * variable's value is shown (only whether it is set), so the listing holds no
 * secret by construction; redact() still goes over it, as over all output.
 */
import {defaults} from '../../config/config-defaults.js';
import {commands} from '../../config/flags.js';
import {inert} from '../../text/inert.js';
import {parseCommandLine} from '../../config/parse-flags.js';
import {helpLine} from '../../config/hints.js';
import {configLocation, describeSource, selectProfile, type Selection} from '../../config/profiles.js';
import {redact} from '../../text/secret.js';
import type {Api} from '../../contract/types.js';
import {loadProfiles} from '../setup/profile-config.js';
import type {CommandIo} from '../process/command-io.js';
import {commandOutput} from '../../output/sink.js';

const help = `
	Usage
	  $ pagewalk profiles [--json]

	Lists the profiles of the config file: each one's bases, API version and
	where each credential comes from. Nothing is read from those sources: no
	command runs, no key file is opened, no value is shown.

	The config file
	  $PAGEWALK_CONFIG, else $XDG_CONFIG_HOME/pagewalk/config.json, else
	  ~/.config/pagewalk/config.json (macOS: ~/Library/Application Support/pagewalk/config.json)

	  {
	    "default": "work",
	    "profiles": {
	      "work": {
	        "base_url": "https://api.coinbase.com",
	        "api_version": "2018-03-22",
	        "account": {"key_file": "~/.config/pagewalk/cdp-key.json"},
	        "commerce": {"command": ["op", "read", "op://Work/Commerce/credential"]}
	      },
	      "staging": {
	        "base_url": "https://staging.example.com",
	        "account": {"env": "STAGING_TOKEN"}
	      }
	    }
	  }

	  Each credential is exactly one of: "env" (a variable's name), "key_file" (a CDP key
	  file, account API only; ~ is your home, a relative path is next to the config file)
	  or "command" (a program and its arguments, run without a shell for at most 10 s; what
	  it prints is the secret: a token, or for the account API a CDP key file's JSON).
	  Base URLs and the version left out take the built-in defaults.

	Which profile, and what wins
	  --profile NAME, else PAGEWALK_PROFILE, else "default" unless a credential variable
	  (COINBASE_ACCESS_TOKEN, COINBASE_COMMERCE_API_KEY, COINBASE_API_KEY_*) is set.
	  Flags beat the profile; the profile in use replaces PAGEWALK_BASE_URL,
	  PAGEWALK_COMMERCE_URL and the credential variables; without a profile, those
	  variables and then the built-in defaults apply.

	Options
	  --json                   one JSON document instead of text
`;

const apis: Api[] = ['account', 'commerce'];

function selectedName(selection: () => Selection | undefined): {name: string; how: string} | undefined {
	try {
		const chosen = selection();
		return chosen && {name: chosen.profile.name, how: chosen.how};
	} catch {
		// PAGEWALK_PROFILE names no profile: the listing still shows what there is.
		return undefined;
	}
}

/** Writes the listing; returns the exit status (a malformed file throws its sentence). */
export async function listProfiles(argv: string[], io: CommandIo): Promise<number> {
	const out = commandOutput(io.stdout, io.stderr);
	const parsed = await parseCommandLine(argv, commands.profiles, help, out);
	if (parsed === undefined) {
		return 0;
	}

	const {config, location} = loadProfiles(io.env, io.profiles);
	const used = selectedName(() => selectProfile(config, undefined, io.env));
	const path = location ?? configLocation(io.env, io.profiles?.platform)?.path;
	const profiles = (config?.profiles ?? []).map((profile) => ({
		name: profile.name,
		default: profile.name === config?.defaultProfile,
		inUse: profile.name === used?.name,
		baseUrl: profile.baseUrl ?? null,
		commerceUrl: profile.commerceUrl ?? null,
		apiVersion: profile.apiVersion ?? null,
		credentials: Object.fromEntries(apis.map((api) => [api, profile.credentials[api] ? describeSource(profile.credentials[api], io.env) : null])),
	}));

	if (parsed.flags.json === true) {
		const document = {
			file: path ?? null,
			exists: config !== undefined,
			default: config?.defaultProfile ?? null,
			inUse: used ?? null,
			profiles: profiles.map(({credentials, ...rest}) => ({...rest, credentials: Object.fromEntries(Object.entries(credentials).map(([api, source]) => [api, source?.json ?? null]))})),
		};
		await out.write(redact(`${JSON.stringify(document, null, '\t')}\n`));
		return 0;
	}

	if (config === undefined) {
		await out.write(redact(path === undefined
			? `No config file: no home directory is known; set PAGEWALK_CONFIG to one (see ${helpLine('profiles-no-home', 'profiles')}).\n`
			: `No profiles: there is no config file at ${inert(path)} (see ${helpLine('profiles-no-file', 'profiles')} for its format).\n`));
		return 0;
	}

	const lines = [`Profiles in ${inert(config.file)}${profiles.length === 0 ? ': none' : ''}`];
	for (const profile of profiles) {
		const marks = [profile.default ? 'default' : '', profile.inUse ? (used!.how === 'default' ? 'in use' : `in use, by ${used!.how}`) : ''].filter(Boolean);
		lines.push('', `${profile.inUse ? '*' : ' '} ${profile.name}${marks.length > 0 ? ` (${marks.join('; ')})` : ''}`);
		const row = (label: string, value: string) => `    ${label.padEnd(14)}${value}`;
		lines.push(
			row('base-url', profile.baseUrl === null ? `${defaults.baseUrl} (default)` : inert(profile.baseUrl)),
			row('commerce-url', profile.commerceUrl === null ? `${defaults.commerceUrl} (default)` : inert(profile.commerceUrl)),
			row('api-version', profile.apiVersion ?? `${defaults.apiVersion} (default)`),
		);
		for (const api of apis) {
			lines.push(row(api, profile.credentials[api]?.text ?? 'none'));
		}
	}

	await out.write(redact(`${lines.join('\n')}\n`));
	return 0;
}

export async function run(argv: string[], io: CommandIo): Promise<number> {
	return listProfiles(argv, io);
}
