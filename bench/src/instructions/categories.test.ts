import { describe, expect, it } from 'vitest';
import { categorize, displayName, summariseProfile } from './categories.js';
import { parsePerfMap } from './perf-map.js';

const NODE = '/opt/node/bin/node';

describe('categorize', () => {
  it.each([
    ['v8::internal::ScavengerCollector::JobTask::Run(v8::JobDelegate*)', 'gc'],
    ['v8::internal::MarkCompactCollector::CollectGarbage()', 'gc'],
    ['v8::internal::Heap::CollectGarbage(v8::internal::AllocationSpace, v8::internal::GarbageCollectionReason)', 'gc'],
    ['v8::internal::Sweeper::RawSweep(v8::internal::PageMetadata*)', 'gc'],
    ['cppgc::internal::MarkerBase::AdvanceMarkingWithLimits()', 'gc'],
    ['v8::internal::WriteBarrier::MarkingSlow(v8::internal::HeapObject)', 'gc'],
    [
      'void v8::internal::BodyDescriptorBase::IteratePointers<v8::internal::ConcurrentMarkingVisitor>(v8::internal::Tagged<v8::internal::HeapObject>, int, int)',
      'gc',
    ],
    ['v8::internal::HeapObject::SizeFromMap(v8::internal::Tagged<v8::internal::Map>) const', 'gc'],
    ['v8::internal::Heap::OnMoveEvent(v8::internal::Tagged<v8::internal::HeapObject>, int)', 'gc'],
    ['v8::internal::FreeListManyCached::Free(v8::internal::WritableFreeSpace const&, v8::internal::FreeMode)', 'gc'],
    ['v8::internal::RootScavengeVisitor::VisitRootPointer(v8::internal::Root, char const*)', 'gc'],
    ['v8::internal::(anonymous namespace)::RememberedSetUpdatingItem::Process()', 'gc'],
    ['v8::internal::compiler::GraphReducer::Reduce(v8::internal::compiler::Node*)', 'compiler'],
    ['void v8::internal::compiler::GraphVisitor<v8::internal::compiler::Foo>::Visit()', 'compiler'],
    ['v8::internal::compiler::PipelineImpl::OptimizeTurbofanGraph(v8::internal::compiler::Linkage*)', 'compiler'],
    ['v8::internal::maglev::MaglevGraphBuilder::VisitLdaNamedProperty()', 'compiler'],
    ['v8::internal::Parser::ParseFunction(v8::internal::Isolate*)', 'compiler'],
    ['v8::internal::Deoptimizer::New(unsigned long, v8::internal::Isolate*)', 'compiler'],
    // Allocation is the program asking for memory: it repeats, so it is the mutator's.
    ['v8::internal::Heap::AllocateRaw(int, v8::internal::AllocationType)', 'mutator'],
    [
      'v8::internal::FreeListManyCached::Allocate(unsigned long, unsigned long*, v8::internal::AllocationOrigin)',
      'mutator',
    ],
    ['v8::internal::Factory::NewJSObject(v8::internal::Handle<v8::internal::JSFunction>)', 'mutator'],
    ['v8::internal::JsonParser<unsigned char>::ParseJsonValue()', 'mutator'],
    ['Builtins_LoadIC', 'mutator'],
    ['uv__io_poll', 'mutator'],
  ])('%s → %s', (name, category) => {
    expect(categorize(name, NODE)).toBe(category);
  });

  it('counts JIT-compiled code (no object) as the program’s, whatever its address', () => {
    expect(categorize('0x0000000028019140', '???')).toBe('mutator');
  });
});

describe('displayName', () => {
  const perfMap = parsePerfMap(
    "28019000 400 JS:*relay file:///srv/gateway/dist/relay.js:12:3\n28020000 100 JS:+'tiered file:///srv/a.js:1:1\n",
  );

  it.each([
    [
      'v8::internal::JsonStringifier::Result v8::internal::JsonStringifier::Serialize_<false>(v8::internal::Handle<v8::internal::Object>, bool) [clone .isra.0]',
      'v8::internal::JsonStringifier::Serialize_<false>',
    ],
    ['node::http_parser::Parser::OnStreamRead(long, uv_buf_t const&)', 'node::http_parser::Parser::OnStreamRead'],
    [
      'std::_Function_handler<void (), node::Foo::operator()() const::{lambda()#1}>::_M_invoke(std::_Any_data const&)',
      'std::_Function_handler<void (), node::Foo::operator()() const::{lambda()#1}>::_M_invoke',
    ],
    ['v8::internal::Heap::operator()(int)', 'v8::internal::Heap::operator()'],
    ['Builtins_LoadIC', 'Builtins_LoadIC'],
    ["Builtins_CallFunction_ReceiverIsAny'2", 'Builtins_CallFunction_ReceiverIsAny'],
    [
      'v8::internal::(anonymous namespace)::IterateObjectCache(v8::internal::Isolate*)',
      'v8::internal::(anonymous namespace)::IterateObjectCache',
    ],
  ])('%s → %s', (name, shown) => {
    expect(displayName(name, perfMap)).toBe(shown);
  });

  it('names JIT code by its function, without the tier marker, and unnamed code as such', () => {
    expect(displayName('0x0000000028019140', perfMap)).toBe('JS:relay file:///srv/gateway/dist/relay.js:12:3');
    expect(displayName('0x0000000028020010', perfMap)).toBe('JS:tiered file:///srv/a.js:1:1');
    expect(displayName("0x0000000028020010'3", perfMap)).toBe('JS:tiered file:///srv/a.js:1:1');
    expect(displayName('0x0000000000000010', perfMap)).toBe('JIT code (unnamed)');
  });
});

describe('summariseProfile', () => {
  it('adds each function to its category, the unlisted remainder to the mutator, and merges tiers of one function', () => {
    const perfMap = parsePerfMap(
      ['28000000 100 JS:~handle file:///srv/a.js:1:1', '28001000 100 JS:*handle file:///srv/a.js:1:1'].join('\n'),
    );
    const summary = summariseProfile(
      {
        total: 10_000,
        functions: [
          {
            instructions: 4_000,
            name: 'v8::internal::Scavenger::ScavengePage(v8::internal::MutablePageMetadata*)',
            object: NODE,
          },
          { instructions: 3_000, name: '0x0000000028000010', object: '???' },
          { instructions: 1_500, name: '0x0000000028001010', object: '???' },
          { instructions: 1_000, name: 'v8::internal::compiler::Schedule::AddNode()', object: NODE },
        ],
      },
      perfMap,
    );
    expect(summary.byCategory).toEqual({ gc: 4_000, compiler: 1_000, mutator: 5_000 });
    expect(summary.functions).toEqual([
      { name: 'JS:handle file:///srv/a.js:1:1', category: 'mutator', instructions: 4_500 },
      { name: 'v8::internal::Scavenger::ScavengePage', category: 'gc', instructions: 4_000 },
      { name: 'v8::internal::compiler::Schedule::AddNode', category: 'compiler', instructions: 1_000 },
    ]);
  });
});
