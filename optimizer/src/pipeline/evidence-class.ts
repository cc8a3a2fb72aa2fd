import type { EvidenceClass, RetrievalDiscovery } from '@gw/contracts';
import type { ToolsInfo } from '../format/request-view.js';
import { retrieveToolName } from '../format/retrieve-declaration.js';

/**
 * Where a request stands on retrieval (optimizer README, "Fresh reversible trimming"): what the body declares,
 * read here, joined with what only the gateway sees (`capabilities.retrievalDiscovery`: a connector to its `/mcp`,
 * a connected session's retrieval lease). The first rule that applies wins: a turn on which the model cannot call
 * a tool, or must call one particular other tool, cannot retrieve whatever lease it holds.
 */
export function classifyEvidence(tools: ToolsInfo, discovery: RetrievalDiscovery): EvidenceClass {
  if (tools.choiceNone || (!tools.declared && discovery !== 'connector')) return 'toolless';
  if (tools.forcedTool !== undefined && tools.forcedTool !== retrieveToolName) return 'forced_handler';
  if (tools.retrieveDeclared || discovery === 'connector') return 'direct';
  if (discovery === 'lease_live') return 'deferral_latched';
  if (discovery === 'lease_lapsed') return 'unlatched_deferred';
  return 'no_discovery';
}

/** A caller qualifies for fresh reversible trimming when the turn declares retrieval or a live lease latches it. */
export function qualifiesForFreshTrim(evidence: EvidenceClass): boolean {
  return evidence === 'direct' || evidence === 'deferral_latched';
}
