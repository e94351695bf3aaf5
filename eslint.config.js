/**
 * ESLint with typescript-eslint, in the code base's own (xo-like) style: tabs,
 * single quotes, semicolons, `{a}` without inner spaces. ESLint rather than xo
 * because every rule here is chosen and visible in this one file, the existing
 * disable comments already name ESLint rules (no-await-in-loop,
 * no-control-regex, react-hooks/*, react/*), and xo's own presets (unicorn and
 * friends) would turn the first run into a style migration instead of a check.
 */
import comments from '@eslint-community/eslint-plugin-eslint-comments/configs';
import js from '@eslint/js';
import stylistic from '@stylistic/eslint-plugin';
import react from 'eslint-plugin-react';
import reactHooks from 'eslint-plugin-react-hooks';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default tseslint.config(
	{
		ignores: ['dist/**', 'node_modules/**', 'coverage/**'],
	},
	js.configs.recommended,
	tseslint.configs.recommended,
	// No blanket `/* eslint-disable */`, no disable without its enable, and every
	// disable says why after ` -- `: a reader must be able to judge whether the
	// reason still holds.
	comments.recommended,
	{
		rules: {
			'@eslint-community/eslint-comments/require-description': ['error', {ignore: []}],
			'@eslint-community/eslint-comments/no-unlimited-disable': 'error',
		},
	},
	{
		languageOptions: {
			ecmaVersion: 2023,
			sourceType: 'module',
			globals: {...globals.node},
		},
		linterOptions: {
			// A disable comment that no longer disables anything is noise, and hides the next real problem.
			reportUnusedDisableDirectives: 'error',
		},
		plugins: {'@stylistic': stylistic},
		rules: {
			// Sequential awaits are usually a missed Promise.all; where order matters, say why in the disable comment.
			'no-await-in-loop': 'error',
			// `try {JSON.parse(...)} catch {}` is how a parse that may fail leaves its result undefined.
			'no-empty': ['error', {allowEmptyCatch: true}],
			eqeqeq: ['error', 'always', {null: 'ignore'}],
			'no-var': 'error',
			'prefer-const': 'error',
			'object-shorthand': 'error',
			'no-console': ['error', {allow: ['error', 'warn']}],
			'@typescript-eslint/consistent-type-imports': ['error', {fixStyle: 'inline-type-imports'}],
			'@typescript-eslint/no-unused-vars': ['error', {argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none'}],
			// Tests and parsers narrow with `!` after a check the compiler cannot follow; tsc's strict mode covers the rest.
			'@typescript-eslint/no-non-null-assertion': 'off',
			'@stylistic/indent': ['error', 'tab', {SwitchCase: 1, offsetTernaryExpressions: true}],
			'@stylistic/quotes': ['error', 'single', {avoidEscape: true}],
			'@stylistic/jsx-quotes': ['error', 'prefer-double'],
			'@stylistic/semi': ['error', 'always'],
			'@stylistic/comma-dangle': ['error', 'always-multiline'],
			'@stylistic/object-curly-spacing': ['error', 'never'],
			'@stylistic/array-bracket-spacing': ['error', 'never'],
			'@stylistic/brace-style': ['error', '1tbs', {allowSingleLine: false}],
			'@stylistic/keyword-spacing': 'error',
			'@stylistic/space-infix-ops': 'error',
			'@stylistic/space-before-blocks': 'error',
			'@stylistic/no-trailing-spaces': 'error',
			'@stylistic/no-multiple-empty-lines': ['error', {max: 1}],
			'@stylistic/eol-last': 'error',
			'@stylistic/no-mixed-spaces-and-tabs': 'error',
		},
	},
	{
		// Hooks live in .ts files too (components/use-*.ts).
		files: ['**/*.tsx', 'source/components/**/*.ts'],
		plugins: {react, 'react-hooks': reactHooks},
		settings: {react: {version: 'detect'}},
		rules: {
			'react-hooks/rules-of-hooks': 'error',
			'react-hooks/exhaustive-deps': 'error',
			'react/jsx-key': 'error',
			'react/no-array-index-key': 'error',
			'react/jsx-no-useless-fragment': 'error',
			'react/self-closing-comp': 'error',
		},
	},
	{
		// Benchmarks print their tables, and time one run after another on
		// purpose: runs started together would measure each other.
		files: ['test/bench/**'],
		rules: {
			'no-console': 'off',
			'no-await-in-loop': 'off',
		},
	},
	{
		// Plain scripts run by node (build, CI helpers).
		files: ['**/*.{js,mjs,cjs}'],
		rules: {
			'@typescript-eslint/no-require-imports': 'off',
		},
	},
);
