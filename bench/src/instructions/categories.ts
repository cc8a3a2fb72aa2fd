import type { AnnotatedProfile } from './annotate.js';
import { addressOf, type PerfMap } from './perf-map.js';

/**
 * Where a counted instruction went. The collector and the optimising compiler run on their own schedule (whether a
 * major collection lands in the counted window moves the total by up to a fifth), so ratios are read on the
 * mutator: everything else, which repeats from run to run.
 */
export type Category = 'mutator' | 'gc' | 'compiler';

// V8's collector: scavenges, mark-compact, sweeping, the marking barrier and cppgc, named by its classes and by the
// heap visitors its templates are instantiated with. Allocation is not in here: it is the program asking for memory,
// and it repeats. (`Heap::OnMoveEvent` runs for every moved object because `--perf-basic-prof` listens to code moves.)
const GC =
  /\b(?:cppgc|heap::base)::|v8::internal::(?:\(anonymous namespace\)::)?(?:Scaveng|MinorMarkSweep|MinorMS|MarkCompact|ConcurrentMarking|IncrementalMarking|Marking|MainMarking|YoungGeneration|Sweeper|ArrayBufferSweeper|GCTracer|Evacuat|FullEvacuat|RememberedSet|SlotSet|TypedSlot|PointersUpdating|RecordMigratedSlot|EphemeronRememberedSet|MemoryReducer|ObjectStats|Worklist|PretenuringHandler|ScavengeJob|MinorGCJob|IncrementalMarkingJob|HeapVisitor|ConcurrentHeapVisitor|WeakObjects|BodyDescriptor|InternalizedStringTableCleaner|RelocIterator|FreeList\w*::Free\b|HeapObject::SizeFromMap|JSFunction::NeedsResetDueToFlushedBytecode|\(anonymous namespace\)::IterateObjectCache|Heap::(?:Collect|Scavenge|MarkCompact|PerformGarbageCollection|Iterate|ProcessWeak|GarbageCollection|StartIncrementalMarking|FinalizeIncrementalMarking|ClearRecordedSlot|Sweep|UpdateYoung|EphemeronKeyWriteBarrier|OnMoveEvent))|WriteBarrier::Marking|v8::internal::\w*Visitor|Map::UsedInstanceSize/;

// V8's parsers, bytecode generator, baseline, Maglev and Turbofan/Turboshaft compilers, and deoptimisation.
const COMPILER =
  /v8::internal::(?:compiler|maglev|baseline|turboshaft|wasm|interpreter::Bytecode(?:Generator|ArrayBuilder|ArrayWriter|RegisterOptimizer)|Parser|ParserBase|PreParser|Scanner|Scope|DeclarationScope|AstValueFactory|Compiler::|OptimizingCompileDispatcher|Deoptimizer|TranslatedState|RegExpCompiler|RegExpParser|Assembler|MacroAssembler|CodeGenerator|SourcePositionTableBuilder|Zone::|AccountingAllocator|ConstantArrayBuilder)/;

export function categorize(name: string, object: string): Category {
  // JIT output (no ELF object) is the program's own code, compiled.
  if (object === '???') return 'mutator';
  // The compiler first: its own visitors (`compiler::…Visitor`) are not the collector's.
  if (COMPILER.test(name)) return 'compiler';
  if (GC.test(name)) return 'gc';
  return 'mutator';
}

export interface FunctionShare {
  name: string;
  category: Category;
  instructions: number;
}

export interface ProfileSummary {
  total: number;
  byCategory: Record<Category, number>;
  /** Self instructions per function, JIT code named from the perf map and merged across tiers; largest first. */
  functions: FunctionShare[];
}

/** Sorts a profile into categories and names its JIT code. */
export function summariseProfile(profile: AnnotatedProfile, perfMap: PerfMap): ProfileSummary {
  const byCategory: Record<Category, number> = { mutator: 0, gc: 0, compiler: 0 };
  const merged = new Map<string, FunctionShare>();
  for (const fn of profile.functions) {
    const category = categorize(fn.name, fn.object);
    byCategory[category] += fn.instructions;
    const name = displayName(fn.name, perfMap);
    const share = merged.get(name) ?? { name, category, instructions: 0 };
    share.instructions += fn.instructions;
    merged.set(name, share);
  }
  // The mutator is the rest of the total: instructions outside any listed function (below callgrind_annotate's
  // threshold) are the program's, and the three always add up to the total.
  byCategory.mutator = profile.total - byCategory.gc - byCategory.compiler;
  return {
    total: profile.total,
    byCategory,
    functions: [...merged.values()].sort((a, b) => b.instructions - a.instructions),
  };
}

/**
 * A name a reader can follow: JIT code by its JavaScript function and source position (the tier marker dropped, so
 * interpreted, baseline and optimised code of one function add up), C++ without its parameter list.
 */
export function displayName(symbol: string, perfMap: PerfMap): string {
  // callgrind marks a function's recursion levels (`f'2`); they are the same function.
  const name = symbol.replace(/'\d+$/, '');
  const address = addressOf(name);
  if (address !== null) {
    const jitName = perfMap.nameAt(address);
    return jitName === undefined ? 'JIT code (unnamed)' : jitName.replace(/^(JS|Eval|Script):[~^+*]?'?/, '$1:');
  }
  return withoutParameters(name);
}

/** `ns::f<T>(int, char*) const [clone .isra.0]` → `ns::f<T>`; `operator()` keeps its own parentheses. */
function withoutParameters(symbol: string): string {
  // The one parenthesis (and space) that belongs to a name rather than a parameter list.
  const name = symbol.replaceAll(ANONYMOUS, ANONYMOUS_MARK);
  return cutParameters(name).replaceAll(ANONYMOUS_MARK, ANONYMOUS);
}

const ANONYMOUS = '(anonymous namespace)';
const ANONYMOUS_MARK = '{anonymous-namespace}';

function cutParameters(name: string): string {
  let depth = 0;
  for (let index = 0; index < name.length; index += 1) {
    const char = name[index];
    if (char === '<') depth += 1;
    else if (char === '>') depth -= 1;
    else if (char === '(' && depth === 0 && !name.slice(0, index).endsWith('operator')) {
      const bare = name.slice(0, index);
      // A return type before the name (`Result ns::f`) is noise here.
      const space = lastTopLevelSpace(bare);
      return space === -1 ? bare : bare.slice(space + 1);
    }
  }
  return name;
}

function lastTopLevelSpace(text: string): number {
  let depth = 0;
  for (let index = text.length - 1; index >= 0; index -= 1) {
    const char = text[index];
    if (char === '>') depth += 1;
    else if (char === '<') depth -= 1;
    else if (char === ' ' && depth === 0) return index;
  }
  return -1;
}
