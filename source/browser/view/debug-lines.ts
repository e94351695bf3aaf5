import {cursorEvidenceLines, findingMessage} from '../../contract/contract-text.js';
import {inert} from '../../text/inert.js';
import {worstFirst} from '../../contract/contract.js';
import {redact} from '../../text/secret.js';
import {formatBytes, formatMs, jsonLines} from './format.js';
import {top} from '../stack/stack-steps.js';
import type {PageStackState} from '../stack/types.js';
import type {FailedExchange, Page} from '../../contract/types.js';
import {retryText} from './status-model.js';

/**
 * The debug panel's text: the request behind the page on screen (URL,
 * headers as the client recorded them, credentials already redacted there),
 * the response (status, timing, retries, size, warnings) and the pagination
 * object exactly as the server sent it. Every server string goes through inert.
 */
/** `now`: the time a wait is counted down to, as the message line counts it (without it, the whole wait). */
export function debugLines(state: PageStackState, now?: number): string[] {
	const lines: string[] = [];
	if (state.error) {
		lines.push(`last error: ${inert(state.error.message)}`, `  while loading ${inert(state.error.url)}`, '');
		const failed = state.error.exchange;
		if (failed) {
			// What a 401 is chased with: the request as sent (credentials
			// redacted), the credential and the JWT's claims, the answer's headers.
			lines.push('the request that failed:', ...exchangeLines(failed), '');
		}
	}

	if (state.pending) {
		lines.push(`in flight: ${inert(state.pending.url)}${state.pending.retrying ? ` (${inert(retryText(state.pending.retrying, now))})` : ''}`, '');
	}

	const page = top(state)?.page;
	if (!page) {
		lines.push('no page loaded yet');
		return lines.map(line => redact(line));
	}

	lines.push(...requestLines(page));

	lines.push(
		'',
		`status ${page.status} · ${formatMs(page.ms)} · ${page.retries} ${page.retries === 1 ? 'retry' : 'retries'} · ${formatBytes(page.bytes)} · ${page.objects.length} objects`,
	);
	// As the client recorded them: cookies and credential-like headers already redacted.
	for (const [name, value] of Object.entries(page.responseHeaders ?? {})) {
		lines.push(`  ${inert(name)}: ${inert(value)}`);
	}

	lines.push(page.warnings.length === 0 ? 'warnings: none' : 'warnings:');
	for (const warning of page.warnings) {
		lines.push(`  ${inert(warning)}`);
	}

	const findings = top(state)?.findings ?? [];
	lines.push('', findings.length === 0 ? 'contract: this page keeps every per-page rule' : `contract: ${findings.length} finding${findings.length === 1 ? '' : 's'} on this page`);
	for (const finding of worstFirst(findings)) {
		lines.push(`  ${inert(findingMessage(finding, state.entries.length))}`);
	}

	lines.push('', `next page: ${page.nextUrl === null ? 'none (end of list)' : inert(page.nextUrl)}`);
	lines.push(...cursorEvidenceLines(page));
	lines.push(`prefetch: ${state.prefetch ? `${state.prefetch.page ? 'ready' : 'loading'} ${inert(state.prefetch.url)}` : 'none'}`);
	lines.push('', 'pagination (raw):', ...jsonLines(page.rawPagination));
	// A server may echo the credential in a link or a pagination field.
	return lines.map(line => redact(line));
}

/** The request line, its headers as recorded, and the credential it carried. */
function requestLines(request: Pick<Page, 'requestUrl' | 'requestHeaders' | 'credential' | 'jwtClaims'>): string[] {
	const lines = [`GET ${inert(request.requestUrl)}`];
	for (const [name, value] of Object.entries(request.requestHeaders)) {
		lines.push(`  ${inert(name)}: ${inert(value)}`);
	}

	return [...lines, ...credentialLines(request)];
}

/** A failed load's request and, when an answer came, its status and headers. */
function exchangeLines(failed: FailedExchange): string[] {
	const lines = requestLines(failed);
	const retries = `${failed.retries} ${failed.retries === 1 ? 'retry' : 'retries'}`;
	lines.push(failed.status === undefined ? `no answer · ${formatMs(failed.ms)} · ${retries}` : `status ${failed.status} · ${formatMs(failed.ms)} · ${retries}`);
	for (const [name, value] of Object.entries(failed.responseHeaders ?? {})) {
		lines.push(`  ${inert(name)}: ${inert(value)}`);
	}

	return lines;
}

/**
 * Which credential the request carried and, for a CDP key, its JWT's claims
 * (never the signature): what someone chasing a 401 compares with the clock
 * and the URL.
 */
function credentialLines(page: Pick<Page, 'credential' | 'jwtClaims'>): string[] {
	const lines = page.credential === undefined ? [] : [`credential: ${inert(page.credential)}`];
	const claims = page.jwtClaims;
	if (claims) {
		const time = (seconds: number | undefined) => seconds === undefined ? '?' : `${seconds} (${new Date(seconds * 1000).toISOString()})`;
		lines.push(
			`  JWT ${inert(claims.alg ?? '?')} kid ${inert(claims.kid ?? '?')}`,
			`  JWT uri ${inert(claims.uri ?? '?')}`,
			`  JWT nbf ${time(claims.nbf)} · exp ${time(claims.exp)}`,
		);
	}

	return lines;
}
