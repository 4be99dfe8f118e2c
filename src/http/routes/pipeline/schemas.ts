import { Type } from 'typebox';

/** Shared shapes of the pipeline routes. */

export const DomainField = Type.String({
  minLength: 1,
  maxLength: 2048,
  description:
    'Company domain, or any http(s) URL on it; normalized to the registrable domain, lower case, without www ' +
    '(https://WWW.Acme.co.uk/careers?x=1 -> acme.co.uk). IP addresses, localhost, single labels and names ' +
    'outside the Public Suffix List are refused.',
  examples: ['acme.com', 'https://www.acme.co.uk/careers'],
});

export const WorkflowIdField = Type.String({
  description: 'Identifier of the run; poll GET /api/v1/workflows/{workflowId} for its progress',
  examples: ['0b6f3c1e-7a51-4d8e-9f67-2a1c4b9e5d10'],
});

export const Enqueued = Type.Literal('enqueued', {
  description: 'Always enqueued on acceptance, also when the call joined a run already under way',
});
