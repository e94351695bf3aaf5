// Only the parts of undici the client uses (see undici-adapter.ts): the
// package index would bundle and parse all of undici (fetch, WebSocket,
// caches) at every start.
declare module 'undici/lib/dispatcher/client.js' {
	import {Client} from 'undici';

	export default Client;
}

declare module 'undici/lib/dispatcher/pool.js' {
	import {Pool} from 'undici';

	export default Pool;
}

declare module 'undici/lib/core/errors.js' {
	import type {errors} from 'undici';

	const parts: typeof errors;
	export = parts;
}
