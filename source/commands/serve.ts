export async function run(_argv: string[]): Promise<number> {
	process.stderr.write('pagewalk serve: not built yet\n');
	return 1;
}
