/**
 * The sandbox's presets: the clean ones, and faulty ones that each break one
 * rule of the contract on purpose. A module of their own that imports
 * nothing, so the client checks `--scenario` and completion lists them
 * without loading the sandbox (test/architecture/layers.ts lets config/
 * import this one file of sandbox/).
 */
export const scenarioNames = ['restricted', 'churn', 'duplicate', 'wrong-limit', 'unordered', 'yielded-mismatch', 'missing-param'] as const;
export type ScenarioName = (typeof scenarioNames)[number];

export function isScenario(name: string): name is ScenarioName {
	return (scenarioNames as readonly string[]).includes(name);
}
