/**
 * redact() covers every run of 8 characters or more of every secret the
 * process holds, wherever it is cut, bare or escaped as a server would echo
 * it; ordinary text and runs too short to matter stay as they are.
 */
import {createHash, generateKeyPairSync} from 'node:crypto';
import fc from 'fast-check';
import {inert} from '../../source/text/inert.js';
import {describe, expect, it} from 'vitest';
import {parseKeyParts} from '../../source/config/cdp-key.js';
import {signRequestJwt} from '../../source/config/jwt-sign.js';
import {recentJwtCount, redact, rememberJwt, Secret, secretRunLength} from '../../source/text/secret.js';
import {leakedRun} from '../support/secret-runs.js';

const mark = Secret.mark;
const token = 'tok0A1b2C3d4E5f6G7h8I9j0K1l2M3n4O5p6';
new Secret(token);

describe('runs of a credential', () => {
	it('the token cut at either end or both is redacted whole; what is around it stays', () => {
		expect(redact(`bad token ${token.slice(0, -6)}.`)).toBe(`bad token ${mark}.`);
		expect(redact(`bad token ${token.slice(3)}.`)).toBe(`bad token ${mark}.`);
		expect(redact(`(${token.slice(10, 18)})`)).toBe(`(${mark})`);
		expect(redact(`${token.slice(0, 12)} and ${token.slice(20)}`)).toBe(`${mark} and ${mark}`);
	});

	it('a run shorter than 8 characters, and ordinary text, stay', () => {
		expect(redact(`id ${token.slice(4, 4 + secretRunLength - 1)}`)).toBe(`id ${token.slice(4, 11)}`);
		for (const text of ['missing Bearer token', 'The commerce API rejected the credential', 'pagewalk: nothing here', '']) {
			expect(redact(text)).toBe(text);
		}
	});

	it('the scheme before it goes with it: Bearer, bare or encoded', () => {
		expect(redact(`got Bearer ${token.slice(2)}`)).toBe(`got ${mark}`);
		expect(redact(`got Bearer%20${token.slice(2)}`)).toBe(`got ${mark}`);
		expect(redact(`got bearer+${token.slice(0, 20)}!`)).toBe(`got ${mark}!`);
	});

	it('JSON-escaped (\\/, \\u00xx of either case) and percent-encoded (either case), cut anywhere', () => {
		const slashed = 'AbC/dEf+GhI/jKl=MnO/pQr';
		new Secret(slashed);
		expect(redact(`{"m":"${slashed.slice(1).replaceAll('/', '\\/')}"}`)).toBe(`{"m":"${mark}"}`);
		expect(redact(`{"m":"${slashed.slice(2, -2).replaceAll('+', '\\u002B').replaceAll('=', '\\u003d')}"}`)).toBe(`{"m":"${mark}"}`);
		expect(redact(`?t=${encodeURIComponent(slashed.slice(0, -3))}&x=1`)).toBe(`?t=${mark}&x=1`);
		expect(redact(`?t=${encodeURIComponent(slashed.slice(3)).replaceAll(/%[\dA-F]{2}/g, escape => escape.toLowerCase())}`)).toBe(`?t=${mark}`);
		// A URL inside a JSON string: escaped twice.
		expect(redact(`"https:\\/\\/x\\/?t=${encodeURIComponent(slashed)}"`)).toBe(`"https:\\/\\/x\\/?t=${mark}"`);
		// A form-encoded space.
		new Secret('pass phrase with spaces');
		expect(redact('p=pass+phrase+with')).toBe(`p=${mark}`);
	});

	it('a credential shorter than 8 characters is redacted whole', () => {
		new Secret('k7Short');
		expect(redact('key k7Short, k7Shor')).toBe(`key ${mark}, k7Shor`);
		expect(redact('key K7SHORT')).toBe(`key ${mark}`);
	});

	it('upper-cased or lower-cased, whole or any run of 8 (the letters of a hex token carry nothing in their case, a mixed one\'s little)', () => {
		expect(redact(`bad token ${token.toUpperCase()}.`)).toBe(`bad token ${mark}.`);
		expect(redact(`bad token ${token.slice(5, 20).toLowerCase()}.`)).toBe(`bad token ${mark}.`);
		expect(redact(`got BEARER ${token.slice(2).toUpperCase()}`)).toBe(`got ${mark}`);
		const hex = '9f86d081884c7d659a2feaa0c55ad015';
		new Secret(hex);
		expect(redact(`{"error":"token ${hex.toUpperCase().slice(0, 24)} expired"}`)).toBe(`{"error":"token ${mark} expired"}`);
	});

	it('split by spaces or line breaks (a line wrapped, groups of four, every character apart): the gaps inside go with it, those around it stay', () => {
		const groups = token.match(/.{1,4}/g)!;
		expect(redact(`token: ${groups.join(' ')} (expired)`)).toBe(`token: ${mark} (expired)`);
		expect(redact(`token:\n  ${token.slice(0, 15)}\n  ${token.slice(15)}\n`)).toBe(`token:\n  ${mark}\n`);
		expect(redact(`[${[...token.slice(3, 14)].join(' ')}]`)).toBe(`[${mark}]`);
		expect(redact(`t=${token.slice(0, 9)}\t${token.slice(9, 16).toUpperCase()}\u00A0${token.slice(16, 20)}.`)).toBe(`t=${mark}.`);
		// JSON-escaped line breaks inside it, as a server's message in a JSON body wraps it.
		expect(redact(`{"m":"${token.slice(0, 10)}\\n${token.slice(10, 17)}"}`)).toBe(`{"m":"${mark}"}`);
		// Words apart stay words.
		expect(redact('the token was rejected; see the docs')).toBe('the token was rejected; see the docs');
	});

	it('split by characters that show nothing: NUL (UTF-16 read as bytes), other controls, zero-width joiners, a soft hyphen, bidi marks, variation selectors', () => {
		for (const gap of ['\0', '\u0001', '\u001B', '\u007F', '\u0085', '\u00AD', '\u200C', '\u200D', '\u200E', '\u2060', '\u2066', '\uFE0F']) {
			expect(redact(`[${[...token.slice(2, 14)].join(gap)}]`)).toBe(`[${mark}]`);
		}

		expect(redact(`t=${Buffer.from(token, 'utf16le').toString('latin1')}.`)).toBe(`t=${mark}\0.`);
		// JSON-escaped, as a report's --json holds it.
		expect(redact(JSON.stringify({m: [...token].join('\0')}))).toBe(`{"m":"${mark}"}`);
		// Made inert before it is redacted (the debug view's cursor evidence): inert's escapes are read as the characters they show.
		for (const gap of ['\0', '\u001B', '\u0085', '\u200D', '\u2066']) {
			expect(redact(`cursor ${inert([...token.slice(2, 14)].join(gap))}.`)).toBe(`cursor ${mark}.`);
		}

		// Text with such characters in it is otherwise left as it is.
		expect(redact('a\0b\u200Dc\u00ADd')).toBe('a\0b\u200Dc\u00ADd');
		expect(redact(inert('a\0b\u200Dc\u00ADd'))).toBe(inert('a\0b\u200Dc\u00ADd'));
	});

	it('base64 and base64url, whatever came before it in what was encoded (a Basic header, Bearer): no run of 8 of it is left', () => {
		const slashy = 'tok/9+Ab?c>d~~e/f+g_h-i.j';
		new Secret(slashy);
		for (const secret of [token, slashy]) {
			for (const before of ['', 'u:', 'user:', 'Bearer ']) {
				const encoded = Buffer.from(`${before}${secret}`).toString('base64');
				for (const form of [encoded, encoded.replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '')]) {
					const result = redact(`Authorization: Basic ${form}`);
					// What is left: at most the characters shared with the bytes before it, and the last few.
					expect(result).toMatch(/^Authorization: Basic [\w+/-]{0,12}\[redacted\][\w+/=-]{0,3}$/);
					expect(leakedRun(result, [form.slice(Math.ceil((before.length * 8) / 6))])).toBeUndefined();
				}
			}
		}

		// Cut: any 8 characters of it.
		const encoded = Buffer.from(token).toString('base64');
		expect(redact(`x ${encoded.slice(4, 12)} y`)).toBe(`x ${mark} y`);
	});
});

describe('CDP key material', () => {
	const pem = String(generateKeyPairSync('ec', {namedCurve: 'P-256'}).privateKey.export({format: 'pem', type: 'sec1'}));
	const key = parseKeyParts({name: 'organizations/o/apiKeys/material-test', privateKey: pem});
	const lines = pem.split('\n').filter(line => line !== '' && !line.startsWith('-----'));
	const body = lines.join('\n');

	it('any run of its base64 lines, alone or across a line break, as text or JSON-escaped once or twice', () => {
		expect(leakedRun(redact(`key: ${lines[1]!.slice(5)}`), lines)).toBeUndefined();
		// A semicolon after the cut, not a space: redaction reads across spaces, so an `e` that the key
		// goes on with after the cut (a random key may) would be taken, rightly, as more of the key.
		expect(redact(`key: ${body.slice(30, 90)}; end`)).toBe(`key: ${mark}; end`);
		expect(redact(JSON.stringify({privateKey: pem}))).not.toContain(lines[1]!.slice(0, secretRunLength));
		expect(leakedRun(redact(JSON.stringify({privateKey: pem})), lines)).toBeUndefined();
		expect(leakedRun(redact(JSON.stringify(JSON.stringify({privateKey: body.slice(7)}))), lines)).toBeUndefined();
		expect(leakedRun(redact(lines.join('')), lines)).toBeUndefined();
	});

	it('not the armour every key shares, nor the key name', () => {
		expect(redact('-----BEGIN EC PRIVATE KEY-----')).toBe('-----BEGIN EC PRIVATE KEY-----');
		expect(redact(`kid ${key.name}`)).toBe(`kid ${key.name}`);
	});

	it('an Ed25519 key given as base64', () => {
		const {privateKey} = generateKeyPairSync('ed25519');
		const seed = privateKey.export({format: 'der', type: 'pkcs8'}).subarray(-32).toString('base64');
		parseKeyParts({name: 'ed', privateKey: seed});
		expect(leakedRun(redact(`seed ${seed.slice(3, -3)}`), [seed])).toBeUndefined();
	});

	it('every JWT the key signs, any part or cut of it, from the moment it is signed', () => {
		const jwt = signRequestJwt(key, {method: 'GET', url: 'https://api.example.com/v2/accounts'});
		const [header, payload, signature] = jwt.split('.') as [string, string, string];
		for (const piece of [jwt, jwt.slice(0, -6), jwt.slice(4), header, payload, signature, signature.slice(3, -3), `${header}.${payload}`]) {
			expect(leakedRun(redact(`echo ${piece} end`), [jwt])).toBeUndefined();
		}
	});
});

describe('the JWT ring', () => {
	it('a JWT pushed out of the ring is no longer redacted; one inside is, by any run', () => {
		const part = (index: number, name: string) => createHash('sha256').update(`ring ${name}${index}`).digest('base64url');
		const jwt = (index: number) => `${part(index, 'h')}.${part(index, 'p')}.${part(index, 's')}`;
		for (let index = 0; index <= recentJwtCount; index++) {
			rememberJwt(jwt(index));
		}

		expect(redact(jwt(0))).toBe(jwt(0));
		expect(redact(`x ${jwt(1).slice(9, 30)} y`)).toBe(`x ${mark} y`);
	});
});

describe('property: any cut of a random secret, in any form a server echoes, inside any text', () => {
	const secretCharacters = fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~+/='.split(''));
	// Around it: characters no secret here holds, so what must stay is known exactly.
	const noise = fc.string({unit: fc.constantFrom(...' !#$()*,:;<>?@[]^`{|}Ωé日'.split('')), maxLength: 40});
	const hex = (character: string) => character.charCodeAt(0).toString(16).padStart(2, '0');
	const forms: Record<string, (cut: string) => string> = {
		bare: cut => cut,
		json: cut => JSON.stringify(cut).slice(1, -1),
		jsonSlash: cut => JSON.stringify(cut).slice(1, -1).replaceAll('/', '\\/'),
		jsonUnicode: cut => [...cut].map(character => /[a-z]/.test(character) ? character : `\\u00${hex(character).toUpperCase()}`).join(''),
		url: cut => encodeURIComponent(cut),
		urlLower: cut => encodeURIComponent(cut).replaceAll(/%[\dA-F]{2}/g, escape => escape.toLowerCase()),
		urlEverything: cut => [...cut].map(character => `%${hex(character)}`).join(''),
		urlInJson: cut => encodeURIComponent(cut).replaceAll('%2F', '\\/'),
		// Escapes JSON-encoded again, as a debug view shows a server string that held them.
		jsonUnicodeTwice: cut => [...cut].map(character => /[a-z]/.test(character) ? character : `\\\\u00${hex(character)}`).join(''),
		upper: cut => cut.toUpperCase(),
		lower: cut => cut.toLowerCase(),
		spaced: cut => cut.replaceAll(/.{3}(?=.)/g, '$& '),
		wrapped: cut => cut.replaceAll(/.{5}(?=.)/g, '$&\n  '),
		spacedInJson: cut => JSON.stringify(cut.replaceAll(/.{4}(?=.)/g, '$&\n')).slice(1, -1),
	};

	it('leaves the text around it exactly and no run of 8 of it, in the form it was echoed in', () => {
		fc.assert(fc.property(
			fc.array(secretCharacters, {minLength: secretRunLength, maxLength: 64}).map(characters => characters.join('')),
			fc.nat(), fc.nat(), fc.constantFrom(...Object.keys(forms)), noise, noise,
			(secret, a, b, formName, before, after) => {
				new Secret(secret);
				const start = a % (secret.length - secretRunLength + 1);
				const end = start + secretRunLength + (b % (secret.length - start - secretRunLength + 1));
				const form = forms[formName]!;
				const text = `${before}${form(secret.slice(start, end))}${after}`;
				const result = redact(text);
				expect(result).toBe(`${before}${mark}${after}`);
				for (let from = 0; from + secretRunLength <= secret.length; from++) {
					expect(result).not.toContain(form(secret.slice(from, from + secretRunLength)));
				}
			},
		), {numRuns: 300});
	});
});
