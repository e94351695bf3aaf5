/**
 * Run as a child (test/browser/child-process/memory-bounds.test.ts), with garbage
 * collection at hand: walks a list of 100-object pages through the page
 * stack as the browser does (every page drawn as a table on top), then
 * searches 300 pages past it for text no object holds, and prints as JSON
 * what is still held: the pages whose rows are alive, the pages the search
 * loaded that are alive, and how many ids were copied into new sets on the
 * way (counted by a Set that counts, put in place before any module loads).
 */
import process from 'node:process';
import v8 from 'node:v8';
import vm from 'node:vm';

let copied = 0;
class CountingSet<T> extends Set<T> {
	constructor(values?: Iterable<T> | null) {
		super(values);
		copied += values ? this.size : 0;
	}
}
globalThis.Set = CountingSet as SetConstructor;
v8.setFlagsFromString('--expose-gc');
const gc = vm.runInNewContext('gc') as () => void;

const {initialState, pageStackReducer: reduce, wantedRequests} = await import('../../../source/browser/stack/page-stack.js');
const {top} = await import('../../../source/browser/stack/stack-steps.js');
const {searchStart} = await import('../../../source/browser/stack/search-landing.js');
const {searchPages} = await import('../../../source/browser/search/search-pages.js');
const {rowsOf} = await import('../../../source/browser/stack/cells.js');
const {pageLayout} = await import('../../../source/browser/view/table-layout.js');
const {base, makePage, url} = await import('../pages.js');
type PageStackState = ReturnType<typeof initialState>;
type Page = ReturnType<typeof makePage>;

const pagesWalked = Number(process.argv[2] ?? 60);
const perPage = 100;
const idOf = (page: number, index: number) => `acct-${String(page).padStart(6, '0')}-${String(index).padStart(3, '0')}`;
/** Page `n` of an endless list: its URL names the last id of page n - 1. */
function pageAt(requestUrl: string): Page {
	const cursor = new URL(requestUrl).searchParams.get('starting_after');
	const number = cursor === null ? 0 : Number(cursor.slice(5, 11)) + 1;
	const objects = Array.from({length: perPage}, (_, index) => ({
		id: idOf(number, index),
		name: `Wallet ${number}.${index}`,
		currency: {code: 'GBP', name: 'British Pound', color: '#0066cf', exponent: 2},
		balance: {amount: `${number}.${index}`, currency: 'GBP'},
		created_at: '2026-10-31T17:45:00Z',
		resource_path: `/v2/accounts/${idOf(number, index)}`,
	}));
	return makePage({url: requestUrl, objects, next: url(objects.at(-1)!.id, `&limit=${perPage}`), limit: perPage});
}

const rows: Array<WeakRef<object>> = [];
function settle(state: PageStackState): PageStackState {
	let current = state;
	for (let wanted = wantedRequests(current)[0]; wanted; wanted = wantedRequests(current)[0]) {
		current = reduce(current, {type: 'loaded', requestId: wanted.requestId, page: pageAt(wanted.url)});
	}

	// Drawn as the table draws it: its rows and their layout at 160 columns.
	const page = top(current)!.page!;
	const drawn = rowsOf(page.objects, page.objectTexts);
	pageLayout(drawn, 160);
	rows.push(new WeakRef(drawn));
	return current;
}

let state = settle(initialState({startUrl: `${base}?limit=${perPage}`, settings: {order: 'desc', limit: perPage}}));
for (let page = 1; page < pagesWalked; page++) {
	state = settle(reduce(state, {type: 'next'}));
}

const walkCopied = copied;
// A WeakRef holds its target until the job that made it ends.
await new Promise(resolve => {
	setImmediate(resolve);
});
gc();
const walk = {
	entries: state.entries.length,
	entriesWithPages: state.entries.filter(entry => entry.page !== null).length,
	maxCachedPages: state.maxCachedPages,
	pagesWithRows: rows.filter(ref => ref.deref() !== undefined).length,
	seen: state.seen.size,
	idsCopied: walkCopied,
};

const loaded: Array<WeakRef<Page>> = [];
const from = searchStart(state);
const outcome = await searchPages(state, 'forward', 'no object holds this', {
	async loadPage(requestUrl) {
		const page = pageAt(requestUrl);
		loaded.push(new WeakRef(page));
		return page;
	},
	signal: new AbortController().signal,
	maxSearchPages: 300,
});
state = reduce(state, {type: 'searched', outcome, from});
await new Promise(resolve => {
	setImmediate(resolve);
});
gc();
const search = {
	result: outcome.result,
	searched: outcome.searched,
	entries: state.entries.length,
	pagesLoadedAlive: loaded.filter(ref => ref.deref() !== undefined).length,
	seen: state.seen.size,
	idsCopied: copied - walkCopied,
};
process.stdout.write(`${JSON.stringify({walk, search})}\n`);
