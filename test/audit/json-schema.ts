/**
 * A small JSON Schema validator for the subset report-schema.json uses: type
 * (one or several), properties, required, additionalProperties: false, items,
 * enum, minimum, maximum, and $ref to one of its $defs. Enough to hold the audit's --json output to its
 * documented shape without adding ajv for one test.
 */
export type Schema = {
	type?: string | string[];
	properties?: Record<string, Schema>;
	required?: string[];
	additionalProperties?: boolean;
	items?: Schema;
	enum?: unknown[];
	minimum?: number;
	maximum?: number;
	/** `#/$defs/NAME`: the schema of that name in the root's $defs. */
	$ref?: string;
	$defs?: Record<string, Schema>;
};

const supported = new Set(['$schema', '$id', 'title', 'description', 'type', 'properties', 'required', 'additionalProperties', 'items', 'enum', 'minimum', 'maximum', '$ref', '$defs']);

function typeOf(value: unknown): string {
	if (value === null) {
		return 'null';
	}

	if (Array.isArray(value)) {
		return 'array';
	}

	if (typeof value === 'number') {
		return Number.isInteger(value) ? 'integer' : 'number';
	}

	return typeof value;
}

/** Every keyword the schema uses must be one this validator understands, so nothing is silently ignored. */
export function unsupportedKeywords(schema: Schema, path = '#'): string[] {
	const found = Object.keys(schema).filter((key) => !supported.has(key)).map((key) => `${path}/${key}`);
	for (const [name, child] of Object.entries(schema.properties ?? {})) {
		found.push(...unsupportedKeywords(child, `${path}/properties/${name}`));
	}

	if (schema.items) {
		found.push(...unsupportedKeywords(schema.items, `${path}/items`));
	}

	for (const [name, child] of Object.entries(schema.$defs ?? {})) {
		found.push(...unsupportedKeywords(child, `${path}/$defs/${name}`));
	}

	if (schema.$ref !== undefined && !/^#\/\$defs\/[\w-]+$/.test(schema.$ref)) {
		found.push(`${path}/$ref`);
	}

	return found;
}

/** Returns the violations, each as "path: problem"; empty when the value fits. */
export function validate(schema: Schema, value: unknown, path = '$', root: Schema = schema): string[] {
	if (schema.$ref !== undefined) {
		const name = schema.$ref.replace('#/$defs/', '');
		const target = root.$defs?.[name];
		if (target === undefined) {
			return [`${path}: $ref ${schema.$ref} names no schema`];
		}

		return validate(target, value, path, root);
	}

	const errors: string[] = [];
	if (schema.type !== undefined) {
		const types = Array.isArray(schema.type) ? schema.type : [schema.type];
		const actual = typeOf(value);
		if (!types.includes(actual) && !(actual === 'integer' && types.includes('number'))) {
			return [`${path}: expected ${types.join(' or ')}, got ${actual}`];
		}
	}

	if (schema.enum && !schema.enum.includes(value)) {
		errors.push(`${path}: ${JSON.stringify(value)} is not one of ${JSON.stringify(schema.enum)}`);
	}

	if (typeof value === 'number') {
		if (schema.minimum !== undefined && value < schema.minimum) {
			errors.push(`${path}: ${value} is below ${schema.minimum}`);
		}

		if (schema.maximum !== undefined && value > schema.maximum) {
			errors.push(`${path}: ${value} is above ${schema.maximum}`);
		}
	}

	if (Array.isArray(value) && schema.items) {
		for (const [index, item] of value.entries()) {
			errors.push(...validate(schema.items, item, `${path}[${index}]`, root));
		}
	}

	if (typeOf(value) === 'object') {
		const record = value as Record<string, unknown>;
		for (const name of schema.required ?? []) {
			if (!(name in record)) {
				errors.push(`${path}: missing ${name}`);
			}
		}

		for (const [name, child] of Object.entries(record)) {
			const property = schema.properties?.[name];
			if (property) {
				errors.push(...validate(property, child, `${path}.${name}`, root));
			} else if (schema.additionalProperties === false) {
				errors.push(`${path}: unexpected property ${name}`);
			}
		}
	}

	return errors;
}
