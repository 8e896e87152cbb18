// The names of the workflows this app serves, without loading them: code that only needs to know
// whether a name exists (the kill switch's scope check, run from the CLI) must not pull in the
// workflows' dependencies (the connect flow, the bundled identity provider). The registry's
// definitions are checked against this list by tests/unit/workflow-names.test.ts.
export const WORKFLOW_NAMES = ["generate_report", "purge_report_cache", "list_repositories"] as const;
export type WorkflowName = (typeof WORKFLOW_NAMES)[number];
