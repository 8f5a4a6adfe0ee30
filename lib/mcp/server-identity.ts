/**
 * What the MCP server says about itself in `initialize`: shared by the HTTP endpoint and the stdio bridge, which
 * answers `initialize` on its own (without waiting for the server it proxies to) and so imports nothing heavier.
 */
export const MCP_SERVER_NAME = "credence";
export const MCP_SERVER_VERSION = "0.1.0";
export const MCP_SERVER_TITLE = "Credence belief memory";

export const MCP_INSTRUCTIONS = `Credence is a memory that keeps contradictions visible. Beliefs carry a credence computed from their evidence; when sources disagree, both positions stay and recall says "contested".
Your scopes are listed as resources (credence://{scope}/summary). Use remember for anything you are told or read (with its source), recall before answering from memory, get_belief to see why something is believed, retract_source when a source turns out wrong. list_scopes and create_scope manage scopes (one per project or tenant); list_members, add_member, change_member_role, remove_member, list_grants, add_grant and remove_grant manage who may read and write them (owners only for changes). Errors come back with a stable code (not_found, forbidden, invalid, conflict, topic_frozen, oscillation_hard_stop, assessment_failed, unavailable, unauthenticated) and the fields at fault.`;
