/** Runs `pagewalk audit` in this process, or the built bundle as a subprocess for exit codes. */
import {spawn} from 'node:child_process';
import {existsSync, readFileSync} from 'node:fs';
import path from 'node:path';
import {Writable} from 'node:stream';
import {fileURLToPath} from 'node:url';
import {runAudit} from '../../source/commands/audit.js';
import {describeError} from '../../source/core/report-error.js';
import type {AuditReport} from '../../source/audit/report.js';
import type {Sandbox} from '../../source/sandbox/index.js';
import type {Schema} from './json-schema.js';

export type Result = {code: number; stdout: string; stderr: string};

class Capture extends Writable {
	text = '';
	override _write(chunk: Buffer | string, _encoding: BufferEncoding, callback: () => void): void {
		this.text += chunk.toString();
		callback();
	}
}

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');
export const cliPath = path.join(root, 'dist/cli.js');
export const schema = JSON.parse(readFileSync(path.join(root, 'source/audit/report-schema.json'), 'utf8')) as Schema;

/** Flags and environment that point pagewalk at a sandbox, with `viewer`'s credentials as the primary ones. */
export function sandboxTarget(sandbox: Sandbox, viewer: 'full' | 'restricted' = 'full') {
	return {
		flags: ['--base-url', sandbox.accountUrl, '--commerce-url', sandbox.commerceUrl],
		env: {
			COINBASE_ACCESS_TOKEN: sandbox.credentials.account[viewer],
			COINBASE_COMMERCE_API_KEY: sandbox.credentials.commerce[viewer],
			NO_COLOR: '1',
		} as Record<string, string>,
	};
}

export async function auditInProcess(argv: string[], env: Record<string, string | undefined>): Promise<Result> {
	const stdout = new Capture();
	const stderr = new Capture();
	let code: number;
	try {
		code = await runAudit(argv, {stdout, stderr, env});
	} catch (error: unknown) {
		const {message, exitCode} = describeError(error);
		stderr.write(`pagewalk: ${message}\n`);
		code = exitCode;
	}

	return {code, stdout: stdout.text, stderr: stderr.text};
}

export async function auditJson(argv: string[], env: Record<string, string | undefined>): Promise<{code: number; report: AuditReport; stdout: string}> {
	const result = await auditInProcess([...argv, '--json'], env);
	if (result.stderr !== '') {
		throw new Error(`audit wrote to stderr: ${result.stderr}`);
	}

	return {code: result.code, report: JSON.parse(result.stdout) as AuditReport, stdout: result.stdout};
}

export function bundleExists(): boolean {
	return existsSync(cliPath);
}

export async function runCli(argv: string[], env: Record<string, string | undefined>): Promise<Result> {
	const child = spawn(process.execPath, [cliPath, ...argv], {env: {PATH: process.env.PATH, ...env}, stdio: ['ignore', 'pipe', 'pipe']});
	let stdout = '';
	let stderr = '';
	child.stdout.on('data', (chunk: Buffer) => {
		stdout += chunk.toString();
	});
	child.stderr.on('data', (chunk: Buffer) => {
		stderr += chunk.toString();
	});
	const code = await new Promise<number>((resolve) => {
		child.on('close', (status) => {
			resolve(status ?? 1);
		});
	});
	return {code, stdout, stderr};
}
