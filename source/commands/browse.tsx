import meow from 'meow';

const help = `
	Usage
	  $ pagewalk [endpoint]            browse a list endpoint page by page
	  $ pagewalk serve                 run the local sandbox of both APIs

	Run 'pagewalk <command> --help' for the options of a command.
`;

/** The interactive browser (issue 3/4). Until it lands, parse and show help. */
export async function run(argv: string[]): Promise<number> {
	const cli = meow(help, {
		importMeta: import.meta,
		argv,
		flags: {
			demo: {type: 'boolean', default: false},
		},
	});
	cli.showHelp(0);
	return 0;
}
