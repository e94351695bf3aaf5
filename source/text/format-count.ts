// Made on first use, not at load: the first Intl.NumberFormat of a process
// loads ICU's number data, which a dump that prints no count never needs.
let number: Intl.NumberFormat | undefined;

/** A count as people read it: 1,234,567. */
export function formatCount(value: number): string {
	number ??= new Intl.NumberFormat('en-US');
	return number.format(value);
}
