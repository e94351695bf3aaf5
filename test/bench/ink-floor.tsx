/**
 * For bench:startup's scale line: the least an Ink app can do to show the
 * same page. It fetches it with Node's own `fetch` (no client to load),
 * draws its ids and names as lines and the same status text, then ends.
 * Built by the bench with esbuild as pagewalk is (one minified production
 * bundle), so the line says what Ink and React cost before any of pagewalk's
 * own work.
 */
import process from 'node:process';
import {Box, render, Text} from 'ink';

type Body = {data: Array<{id: string; name: string}>; pagination: {next_uri: string | null}};

const response = await fetch(process.argv[2]!, {headers: {authorization: `Bearer ${process.env['COINBASE_ACCESS_TOKEN'] ?? ''}`, 'cb-version': '2018-03-22'}});
const body = (await response.json()) as Body;
const status = `${body.data.length}/25 · ${body.pagination.next_uri ? 'more pages follow' : 'end of list'}`;
const instance = render(
	<Box flexDirection="column">
		{body.data.map(object => (
			<Text key={object.id}>{`${object.id}  ${object.name}`}</Text>
		))}
		<Text>{status}</Text>
	</Box>,
);
instance.unmount();
process.exit(0);
