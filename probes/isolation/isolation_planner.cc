#include "probes/isolation/isolation_planner.h"

#include <algorithm>
#include <array>
#include <cmath>
#include <map>
#include <utility>

#include "probes/isolation/isolation_findings.h"
#include "probes/isolation/isolation_search.h"

namespace gpuconform::isolation {

namespace {

enum class ItemKind {
  kScreen,         // the whole allocation
  kSuspect,        // a set known to fail (tested, or the last part of a failing set whose others passed)
  kUnknown,        // a set not known either way: the last part of a set where another part failed
  kWithin,         // a failing set whose parts each passed alone: which two parts fail together
  kCross,          // sides that pass alone and fail together, in one of the candidate pairs of sets
  kBoundaryCheck,  // A1+B1 and A2+B2 both failed: A1+B2 and A2+B1 must fail too
  kConfirmNode,    // one node isolated: fail again with a different good partner
  kConfirmPair,    // two nodes: fail together again, then each pass with a good partner
  kRecheck,        // parts that each passed alone: does their union fail again?
};

struct Item {
  ItemKind kind = ItemKind::kScreen;
  Nodes nodes;               // screen, suspect, unknown; confirm: {x} or {x, y}
  std::vector<Nodes> parts;  // within: the parts; boundary check: {A1, A2, B1, B2}
  std::vector<std::pair<Nodes, Nodes>> candidates;  // cross: (A, B) pairs, one of which fails together
  std::optional<TestId> origin;  // suspect: the failing test it descends from
  std::vector<Nodes> chain;      // suspect, confirm: parts of the origin's set that passed on the way down
  std::vector<TestId> evidence;  // the failing tests that put it here
  Nodes partners;                // confirm node: the nodes it already failed with
  bool first_split = false;      // suspect: the whole allocation, cut by seed groups
  bool tests_every_part = false; // suspect: the last part is tested too, not inferred
  int stage = 0;                 // confirm pair: even together, odd apart
};

struct Planned {
  int item = 0;  // index into the round's items
  int role = 0;  // which of the item's tests
  Nodes nodes;
  std::string purpose;
};

// ceil(s^(1/levels)) parts, at least 2, at most s: the split that reaches single nodes in
// `levels` rounds.
int BudgetedParts(int size, int levels) {
  if (size <= 1) return 1;
  if (levels <= 1) return size;
  int k = static_cast<int>(std::ceil(std::pow(static_cast<double>(size), 1.0 / levels) - 1e-9));
  return std::clamp(k, 2, size);
}

// A pair is named after failing together and passing apart this many times: a flaky node
// (failing half its tests at random) mimics one round of that with odds 1/4, six with 1/4096.
// bench/isolation-sim: with three, 17 of 5,000 flaky trials ended in a false pair; with six, none.
constexpr int kPairConfirmations = 6;

int CeilLog2(int n) {
  int bits = 0;
  while ((1LL << bits) < n) ++bits;
  return bits;
}

}  // namespace

int DefaultSplitRounds(int node_count) { return (CeilLog2(std::max(node_count, 2)) + 1) / 2 + 3; }
int DefaultRoundBudget(int node_count) { return 2 * CeilLog2(std::max(node_count, 2)) + 4 + 2 * kPairConfirmations; }

// Indexed by the enums' values.
constexpr const char* kOutcomeNames[] = {"pass", "fail", "slow"};
constexpr const char* kFindingKindNames[] = {"node", "slow-node", "pair", "boundary", "inconclusive"};

const char* OutcomeName(Outcome outcome) { return kOutcomeNames[static_cast<int>(outcome)]; }

std::optional<Outcome> ParseOutcome(const std::string& text) {
  const auto* name = std::find(std::begin(kOutcomeNames), std::end(kOutcomeNames), text);
  if (name == std::end(kOutcomeNames)) return std::nullopt;
  return static_cast<Outcome>(name - std::begin(kOutcomeNames));
}

const char* FindingKindName(FindingKind kind) { return kFindingKindNames[static_cast<int>(kind)]; }

struct Planner::State {
  std::vector<Finding> Findings() const;

  PlannerInput input;
  std::vector<std::string> names;  // internal order
  std::vector<int> group_of;       // seed group index, -1 for none
  int budget = 0;
  int split_rounds = 0;
  int cap = 0;

  std::vector<char> good;
  std::vector<char> known_good;  // from the input
  std::vector<int> passes;  // passing tests per node: partners with more evidence are taken first
  std::vector<std::vector<DoneTest>> history;  // by round
  std::vector<Item> items;                     // waiting for the next round
  std::vector<Named> named;
  std::vector<Named> open_questions;  // inconclusive found during the search

  std::vector<Item> round_items;  // the items the planned round tests
  std::vector<Planned> planned;
  std::vector<Item> deferred;     // no partner this round
  bool awaiting = false;
  bool finished = false;
  std::string stopped;

  int RoundNumber() const { return static_cast<int>(history.size()) + 1; }
  std::vector<std::string> Names(const Nodes& nodes) const {
    std::vector<std::string> out;
    for (const int node : nodes) out.push_back(names[node]);
    return out;
  }
  const DoneTest& At(TestId id) const { return history[id.round - 1][id.index]; }

  // ---- splitting -------------------------------------------------------------------------

  // k contiguous parts; cut at seed-group changes when the set spans k groups or more.
  std::vector<Nodes> Split(const Nodes& set, int k) const {
    const int size = static_cast<int>(set.size());
    k = std::clamp(k, 1, std::max(size, 1));
    std::vector<int> changes;  // positions where a new group starts
    for (int j = 1; j < size; ++j) {
      if (group_of[set[j]] != group_of[set[j - 1]]) changes.push_back(j);
    }
    std::vector<int> cuts;
    if (static_cast<int>(changes.size()) >= k - 1) {
      // Each cut at the group change nearest its even position, leaving enough changes for the
      // cuts after it; positions only grow, so one walk over the changes places them all.
      std::size_t c = 0;
      for (int i = 1; i < k; ++i) {
        const double ideal = static_cast<double>(i) * size / k;
        const std::size_t last_allowed = changes.size() - static_cast<std::size_t>(k - i);
        while (c < last_allowed && std::abs(changes[c + 1] - ideal) <= std::abs(changes[c] - ideal)) ++c;
        cuts.push_back(changes[c]);
        ++c;
      }
    } else {
      for (int i = 1; i < k; ++i) cuts.push_back(static_cast<int>(static_cast<long long>(i) * size / k));
    }
    std::vector<Nodes> parts;
    int from = 0;
    cuts.push_back(size);
    for (const int to : cuts) {
      parts.emplace_back(set.begin() + from, set.begin() + to);
      from = to;
    }
    return parts;
  }

  // The budgeted k, and parts of two or more where too few good partners are known for single
  // nodes; never above the node cap.
  int PartsFor(int size, int levels, std::size_t partners) const {
    int k = BudgetedParts(size, levels);
    if (k > size / 2 && partners < static_cast<std::size_t>(size)) k = std::max(2, size / 2);
    if (cap > 0) k = std::max(k, (size + cap - 1) / cap);
    return k;
  }

  std::vector<Nodes> FirstSplit(const Nodes& set, int levels, std::size_t partners) const {
    if (!input.seed_groups.empty()) {
      std::vector<Nodes> parts;
      for (const int node : set) {
        if (parts.empty() || group_of[parts.back().back()] != group_of[node] ||
            (cap > 0 && static_cast<int>(parts.back().size()) >= cap)) {
          parts.emplace_back();
        }
        parts.back().push_back(node);
      }
      return parts;
    }
    const int size = static_cast<int>(set.size());
    // ceil(sqrt(N)/2) groups, or more when the plan needs them: the first split's tests are paid
    // once, the lower levels' per fault, so a wider first split pays off from two faults on.
    const int half_sqrt = static_cast<int>(std::ceil(std::sqrt(static_cast<double>(size)) / 2));
    const int budgeted = PartsFor(size, levels, partners);
    const int k = input.first_split_groups > 0 ? input.first_split_groups : std::max(budgeted, std::min(half_sqrt, size));
    return Split(set, cap > 0 ? std::max(k, (size + cap - 1) / cap) : k);
  }

  // ---- planning --------------------------------------------------------------------------

  // Good nodes in no item, handed out as partners once per round; Undo returns those taken
  // since a mark (an item that could not be planned whole).
  struct Pool {
    std::vector<int> free;  // in order; -1 once taken
    std::vector<std::pair<std::size_t, int>> taken;  // (position, node)
    std::size_t next = 0;
    // The first free node not in `avoid`, preferring one whose seed group is `group` (>= 0) by
    // `group_of`: a suspect tested with a partner from its own switch or block is tested on its
    // own links, not on the links between groups, which a boundary fault slows for every node.
    std::optional<int> Take(const Nodes& avoid, int group = -1, const std::vector<int>* group_of = nullptr) {
      for (const bool same_group : {true, false}) {
        if (same_group && (group < 0 || group_of == nullptr)) continue;
        for (std::size_t i = next; i < free.size(); ++i) {
          if (free[i] < 0 || Contains(avoid, free[i])) continue;
          if (same_group && (*group_of)[free[i]] != group) continue;
          const int node = free[i];
          free[i] = -1;
          taken.emplace_back(i, node);
          while (next < free.size() && free[next] < 0) ++next;
          return node;
        }
      }
      return std::nullopt;
    }
    std::size_t Available() const { return free.size() - taken.size(); }
    void Undo(std::size_t mark) {
      for (std::size_t j = mark; j < taken.size(); ++j) {
        free[taken[j].first] = taken[j].second;
        next = std::min(next, taken[j].first);
      }
      taken.resize(mark);
    }
  };

  // A test of `nodes`; a single node gets a good partner. False when no partner is left.
  bool Add(std::vector<Planned>& tests, int item, int role, Nodes nodes, const std::string& purpose, Pool& pool,
           const Nodes& avoid = {}) {
    if (nodes.size() == 1) {
      const auto partner = pool.Take(avoid, group_of[nodes[0]], &group_of);
      if (!partner) return false;
      nodes = Union(nodes, {*partner});
    }
    tests.push_back({item, role, std::move(nodes), purpose});
    return true;
  }

  // The tests of one item, or false (nothing added) when it must wait for a partner.
  bool PlanItem(Item& item, int index, Pool& pool, std::vector<Planned>& out) {
    std::vector<Planned> tests;
    const std::size_t mark = pool.taken.size();
    auto give_back = [&] {  // the partners taken for an item that cannot be planned whole
      pool.Undo(mark);
      return false;
    };
    const int levels = split_rounds - RoundNumber();
    switch (item.kind) {
      case ItemKind::kScreen: {
        const int size = static_cast<int>(item.nodes.size());
        const int chunks = cap > 0 ? (size + cap - 1) / cap : 1;
        item.parts = Split(item.nodes, chunks);
        for (std::size_t i = 0; i < item.parts.size(); ++i) {
          if (!Add(tests, index, static_cast<int>(i), item.parts[i], "screen", pool)) return give_back();
        }
        break;
      }
      case ItemKind::kSuspect: {
        const int size = static_cast<int>(item.nodes.size());
        item.parts.clear();
        if (item.first_split) item.parts = FirstSplit(item.nodes, levels, pool.Available());
        if (item.parts.size() < 2) item.parts = Split(item.nodes, PartsFor(size, levels, pool.Available()));
        // The first split tests every part: with several faults the last part holds one too, and
        // with a pair or a boundary every part passes, which only testing them all shows. So does
        // the last split (single nodes): an untested last node whose sibling failed would need a
        // round of its own after the plan.
        const std::size_t singles = static_cast<std::size_t>(
            std::count_if(item.parts.begin(), item.parts.end(), [](const Nodes& part) { return part.size() == 1; }));
        item.tests_every_part = item.first_split || (levels <= 1 && pool.Available() >= singles);
        const std::size_t tested = item.tests_every_part ? item.parts.size() : item.parts.size() - 1;
        for (std::size_t i = 0; i < tested; ++i) {
          const Nodes& part = item.parts[i];
          if (part.size() == 1 && good[part[0]]) continue;  // passed before, and alone it cannot fail
          if (!Add(tests, index, static_cast<int>(i), part, "split", pool)) return give_back();
        }
        break;
      }
      case ItemKind::kUnknown:
        if (levels > 1 || item.nodes.size() == 1 || pool.Available() < item.nodes.size()) {
          if (!Add(tests, index, 0, item.nodes, "unknown", pool)) return give_back();
          break;
        }
        // In the last split round, when partners allow: each node on its own, so a fault in it is
        // still confirmed within the plan.
        item.parts = Split(item.nodes, static_cast<int>(item.nodes.size()));
        for (std::size_t i = 0; i < item.parts.size(); ++i) {
          if (!Add(tests, index, static_cast<int>(i), item.parts[i], "unknown", pool)) return give_back();
        }
        break;
      case ItemKind::kWithin: {
        const std::size_t half = item.parts.size() / 2;
        if (half >= 2) tests.push_back({index, 0, UnionOf(item.parts, 0, half), "within"});
        if (item.parts.size() - half >= 2) {
          tests.push_back({index, 1, UnionOf(item.parts, half, item.parts.size()), "within"});
        }
        break;
      }
      case ItemKind::kCross:
        // Each candidate (A, B) is halved on both sides and the matched halves are tested: A1+B1
        // and A2+B2. When none fails, the crossed halves (A1, B2) and (A2, B1) are the candidates
        // of the next round: every node is still in one candidate, so the tests stay disjoint, and
        // every round halves the candidates whatever the results.
        for (std::size_t c = 0; c < item.candidates.size(); ++c) {
          const auto halves = Halves(item.candidates[c]);
          const int role = static_cast<int>(2 * c);
          tests.push_back({index, role, Union(halves[0], halves[2]), "cross"});
          if (!halves[1].empty() && !halves[3].empty()) {
            tests.push_back({index, role + 1, Union(halves[1], halves[3]), "cross"});
          }
        }
        break;
      case ItemKind::kRecheck:
        tests.push_back({index, 0, UnionOf(item.parts, 0, item.parts.size()), "recheck"});
        break;
      case ItemKind::kBoundaryCheck:
        tests.push_back({index, 0, Union(item.parts[0], item.parts[3]), "boundary-check"});
        tests.push_back({index, 1, Union(item.parts[1], item.parts[2]), "boundary-check"});
        break;
      case ItemKind::kConfirmNode:
        // A partner it was not tested with; after an inference from a test of many nodes, where
        // none may be left, any good node is a different partner from the one test it failed.
        if (!Add(tests, index, 0, item.nodes, "confirm", pool, item.partners) &&
            (item.partners.size() < 2 || !Add(tests, index, 0, item.nodes, "confirm", pool))) {
          return give_back();
        }
        break;
      case ItemKind::kConfirmPair:
        if (item.stage % 2 == 0) {
          tests.push_back({index, 0, item.nodes, "confirm-pair"});
        } else {
          if (!Add(tests, index, 0, {item.nodes[0]}, "confirm-pair", pool, item.nodes)) return give_back();
          if (!Add(tests, index, 1, {item.nodes[1]}, "confirm-pair", pool, item.nodes)) return give_back();
        }
        break;
    }
    for (const Planned& test : tests) {
      if (cap > 0 && static_cast<int>(test.nodes.size()) > cap) {
        Named question;
        question.nodes = test.nodes;
        question.detail = "the search would need a test of " + std::to_string(test.nodes.size()) +
                          " nodes, above the node cap of " + std::to_string(cap);
        open_questions.push_back(std::move(question));
        pool.Undo(mark);
        return true;  // planned as nothing: the item is dropped with its question
      }
    }
    out.insert(out.end(), tests.begin(), tests.end());
    return true;
  }

  // ---- resolving -------------------------------------------------------------------------

  void Good(const Nodes& nodes) {
    for (const int node : nodes) {
      good[node] = 1;
      ++passes[node];
    }
  }

  void Question(Nodes nodes, std::vector<TestId> evidence, std::string detail) {
    open_questions.push_back({FindingKind::kInconclusive, std::move(nodes), {}, {}, std::move(evidence), std::move(detail)});
  }

  Nodes Others(TestId test, int node) const {
    Nodes others = At(test).nodes;
    others.erase(std::find(others.begin(), others.end(), node));
    return others;
  }

  // A single node isolated by `test`, where every other member is known good.
  Item ConfirmNode(int node, TestId test, Nodes partners, std::vector<Nodes> chain) {
    Item item;
    item.kind = ItemKind::kConfirmNode;
    item.nodes = {node};
    item.evidence = {test};
    item.partners = std::move(partners);
    item.chain = std::move(chain);
    return item;
  }

  Item Suspect(Nodes nodes, TestId origin, std::vector<Nodes> chain) {
    Item item;
    item.kind = ItemKind::kSuspect;
    item.nodes = std::move(nodes);
    item.origin = origin;
    item.evidence = {origin};
    item.chain = std::move(chain);
    return item;
  }

  // {A1, A2, B1, B2}: each side halved along its groups; a side of one node stays whole (A2 or
  // B2 empty).
  std::array<Nodes, 4> Halves(const std::pair<Nodes, Nodes>& candidate) const {
    const auto& [a, b] = candidate;
    std::vector<Nodes> as = a.size() >= 2 ? Split(a, 2) : std::vector<Nodes>{a, {}};
    std::vector<Nodes> bs = b.size() >= 2 ? Split(b, 2) : std::vector<Nodes>{b, {}};
    return {as[0], as[1], bs[0], bs[1]};
  }

  // Candidate pairs of sides, each side passing alone; together one pair failed (in `evidence`).
  Item Cross(std::vector<std::pair<Nodes, Nodes>> candidates, std::vector<TestId> evidence) {
    Item item;
    item.evidence = std::move(evidence);
    if (candidates.size() == 1 && candidates[0].first.size() == 1 && candidates[0].second.size() == 1) {
      item.kind = ItemKind::kConfirmPair;
      item.nodes = Union(candidates[0].first, candidates[0].second);
      return item;
    }
    item.kind = ItemKind::kCross;
    item.candidates = std::move(candidates);
    return item;
  }
  Item Cross(const Nodes& a, const Nodes& b, std::vector<TestId> evidence) {
    return Cross(std::vector<std::pair<Nodes, Nodes>>{{a, b}}, std::move(evidence));
  }

  // Parts that each passed alone and failed together once: a pair or a boundary fails again, a
  // flaky node only half the time, and a search for two sides would follow its coin.
  Item Recheck(std::vector<Nodes> parts, std::vector<TestId> evidence) {
    Item item;
    item.kind = ItemKind::kRecheck;
    item.parts = std::move(parts);
    item.evidence = std::move(evidence);
    return item;
  }

  // Parts that each passed alone and failed together.
  Item Within(std::vector<Nodes> parts, std::vector<TestId> evidence) {
    if (parts.size() == 2) return Cross(parts[0], parts[1], std::move(evidence));
    Item item;
    item.kind = ItemKind::kWithin;
    item.parts = std::move(parts);
    item.evidence = std::move(evidence);
    return item;
  }

  void Resolve(const Item& item, const std::vector<std::pair<TestId, const Planned*>>& tests,
               std::vector<Item>& next) {
    auto outcome = [&](int role) -> std::optional<std::pair<TestId, Outcome>> {
      for (const auto& [id, planned] : tests) {
        if (planned->role == role) return std::pair{id, At(id).result.outcome};
      }
      return std::nullopt;
    };
    auto with = [](std::vector<TestId> evidence, TestId id) {
      evidence.push_back(id);
      return evidence;
    };
    switch (item.kind) {
      case ItemKind::kScreen:
        for (std::size_t i = 0; i < item.parts.size(); ++i) {
          const auto result = outcome(static_cast<int>(i));
          if (!Bad(result->second)) continue;
          // Nodes the caller knows good are partners, not suspects.
          Nodes suspects;
          for (const int node : item.parts[i]) {
            if (!known_good[node]) suspects.push_back(node);
          }
          if (suspects.size() == 1) {
            next.push_back(ConfirmNode(suspects[0], result->first, Others(result->first, suspects[0]), {}));
          } else if (suspects.empty()) {
            Question(item.parts[i], {result->first}, "failed, though every node in it was known good");
          } else {
            Item suspect = Suspect(suspects, result->first, {});
            suspect.first_split = item.parts.size() == 1;
            next.push_back(std::move(suspect));
          }
        }
        return;
      case ItemKind::kSuspect: {
        bool all_passed = true;
        std::vector<Nodes> passed = item.chain;
        const std::size_t tested = item.tests_every_part ? item.parts.size() : item.parts.size() - 1;
        for (std::size_t i = 0; i < tested; ++i) {
          const Nodes& part = item.parts[i];
          const auto result = outcome(static_cast<int>(i));
          if (!result || !Bad(result->second)) {  // passed, or a single node known good (not tested)
            passed.push_back(part);
            continue;
          }
          all_passed = false;
          if (part.size() == 1) {
            next.push_back(ConfirmNode(part[0], result->first, Others(result->first, part[0]), {}));
          } else {
            next.push_back(Suspect(part, result->first, {}));
          }
        }
        if (item.tests_every_part) {
          // Every part passed alone, and together they failed: two of them fail together.
          if (all_passed) next.push_back(Recheck(passed, item.evidence));
          return;
        }
        const Nodes& last = item.parts.back();
        if (!all_passed) {
          Item unknown;
          unknown.kind = ItemKind::kUnknown;
          unknown.nodes = last;
          next.push_back(std::move(unknown));
        } else if (last.size() == 1) {
          // Inferred: the origin failed and every other member passed.
          next.push_back(ConfirmNode(last[0], *item.origin, Others(*item.origin, last[0]), passed));
        } else {
          next.push_back(Suspect(last, *item.origin, passed));
        }
        return;
      }
      case ItemKind::kUnknown: {
        if (!item.parts.empty()) {  // tested node by node
          for (std::size_t i = 0; i < item.parts.size(); ++i) {
            const auto [id, result] = *outcome(static_cast<int>(i));
            if (!Bad(result)) continue;
            next.push_back(ConfirmNode(item.parts[i][0], id, Others(id, item.parts[i][0]), {}));
          }
          return;
        }
        const auto [id, result] = *outcome(0);
        if (!Bad(result)) return;
        if (item.nodes.size() == 1) {
          next.push_back(ConfirmNode(item.nodes[0], id, Others(id, item.nodes[0]), {}));
        } else {
          next.push_back(Suspect(item.nodes, id, {}));
        }
        return;
      }
      case ItemKind::kWithin: {
        const std::size_t half = item.parts.size() / 2;
        const std::vector<Nodes> first(item.parts.begin(), item.parts.begin() + half);
        const std::vector<Nodes> second(item.parts.begin() + half, item.parts.end());
        const auto one = outcome(0);
        const auto two = outcome(1);
        const bool first_bad = one && Bad(one->second);
        const bool second_bad = two && Bad(two->second);
        if (first_bad) next.push_back(Within(first, with(item.evidence, one->first)));
        if (second_bad) next.push_back(Within(second, with(item.evidence, two->first)));
        if (!first_bad && !second_bad) {
          next.push_back(Cross(UnionOf(first, 0, first.size()), UnionOf(second, 0, second.size()), item.evidence));
        }
        return;
      }
      case ItemKind::kCross: {
        std::vector<std::pair<Nodes, Nodes>> remaining;
        bool any_failed = false;
        for (std::size_t c = 0; c < item.candidates.size(); ++c) {
          const auto halves = Halves(item.candidates[c]);
          const auto one = outcome(static_cast<int>(2 * c));
          const auto two = outcome(static_cast<int>(2 * c + 1));
          const bool one_bad = Bad(one->second);
          const bool two_bad = two && Bad(two->second);
          any_failed = any_failed || one_bad || two_bad;
          if (one_bad && two_bad) {
            // Every matched half fails: the crossed halves must fail too for a boundary.
            Item check;
            check.kind = ItemKind::kBoundaryCheck;
            check.parts = {halves[0], halves[1], halves[2], halves[3]};
            check.evidence = with(with(item.evidence, one->first), two->first);
            next.push_back(std::move(check));
          } else if (one_bad) {
            next.push_back(Cross(halves[0], halves[2], with(item.evidence, one->first)));
          } else if (two_bad) {
            next.push_back(Cross(halves[1], halves[3], with(item.evidence, two->first)));
          } else if (!halves[1].empty() && !halves[3].empty()) {
            remaining.push_back({halves[0], halves[3]});
            remaining.push_back({halves[1], halves[2]});
          } else if (!halves[1].empty()) {
            remaining.push_back({halves[1], halves[2]});  // B is one node
          } else if (!halves[3].empty()) {
            remaining.push_back({halves[0], halves[3]});  // A is one node
          }
        }
        if (any_failed) return;
        if (remaining.empty()) {
          Nodes nodes;
          for (const auto& [a, b] : item.candidates) nodes = Union(nodes, Union(a, b));
          Question(nodes, item.evidence,
                   "these nodes failed together, but every part of them passes with every other: results "
                   "contradict each other (a flaky node?)");
          return;
        }
        next.push_back(Cross(std::move(remaining), item.evidence));
        return;
      }
      case ItemKind::kBoundaryCheck: {
        const auto one = *outcome(0);
        const auto two = *outcome(1);
        const Nodes a = UnionOf(item.parts, 0, 2);
        const Nodes b = UnionOf(item.parts, 2, 4);
        std::vector<TestId> evidence = with(with(item.evidence, one.first), two.first);
        if (Bad(one.second) && Bad(two.second)) {
          Named boundary;
          boundary.kind = FindingKind::kBoundary;
          boundary.side_a = a;
          boundary.side_b = b;
          boundary.nodes = Union(a, b);
          boundary.evidence = std::move(evidence);
          boundary.detail = "each side passes alone, and every half of one fails with every half of the other";
          named.push_back(std::move(boundary));
        } else {
          Question(Union(a, b), std::move(evidence),
                   "two sets fail together and both matching halves failed, but not both crossed halves: more "
                   "than one fault, or a flaky node");
        }
        return;
      }
      case ItemKind::kConfirmNode: {
        const auto [id, result] = *outcome(0);
        const int node = item.nodes[0];
        if (Bad(result)) {
          Named finding;
          finding.nodes = {node};
          finding.evidence = with(item.evidence, id);
          const bool all_slow = std::all_of(finding.evidence.begin(), finding.evidence.end(),
                                            [&](TestId t) { return At(t).result.outcome == Outcome::kSlow; });
          finding.kind = all_slow ? FindingKind::kSlowNode : FindingKind::kNode;
          finding.detail = all_slow ? "completes below the floor with every good partner it was tested with"
                                    : "fails with every good partner it was tested with";
          named.push_back(std::move(finding));
          return;
        }
        if (!item.chain.empty()) {
          // The inference was wrong: the origin's parts each pass alone, so two of them fail together.
          std::vector<Nodes> parts = item.chain;
          parts.push_back({node});
          std::sort(parts.begin(), parts.end());
          next.push_back(Recheck(parts, item.evidence));
        } else if (item.partners.size() == 1) {
          // It failed with one partner and passes with another: the two may fail together.
          Item pair;
          pair.kind = ItemKind::kConfirmPair;
          pair.nodes = Union({node}, item.partners);
          pair.evidence = item.evidence;
          next.push_back(std::move(pair));
        } else {
          Question({node}, with(item.evidence, id),
                   "failed with nodes known good, then passed with another: results contradict each other (a "
                   "flaky node?)");
        }
        return;
      }
      case ItemKind::kRecheck: {
        const auto [id, result] = *outcome(0);
        if (Bad(result)) {
          next.push_back(Within(item.parts, with(item.evidence, id)));
        } else {
          Question(UnionOf(item.parts, 0, item.parts.size()), with(item.evidence, id),
                   "failed once, though each part passes alone, then passed: results contradict each other (a "
                   "flaky node?)");
        }
        return;
      }
      case ItemKind::kConfirmPair: {
        if (item.stage % 2 == 0) {
          const auto [id, result] = *outcome(0);
          if (Bad(result)) {
            Item apart = item;
            apart.stage = item.stage + 1;
            apart.evidence.push_back(id);
            next.push_back(std::move(apart));
          } else {
            Question(item.nodes, with(item.evidence, id),
                     "failed together once and passed together later: results contradict each other (a flaky "
                     "node?)");
          }
          return;
        }
        const auto x = *outcome(0);
        const auto y = *outcome(1);
        if (!Bad(x.second) && !Bad(y.second) && item.stage + 1 < 2 * kPairConfirmations) {
          Item again = item;
          again.stage = item.stage + 1;
          again.evidence = with(with(item.evidence, x.first), y.first);
          next.push_back(std::move(again));
          return;
        }
        if (!Bad(x.second) && !Bad(y.second)) {
          Named pair;
          pair.kind = FindingKind::kPair;
          pair.nodes = item.nodes;
          pair.evidence = with(with(item.evidence, x.first), y.first);
          pair.detail = "fail together, and each passes with nodes known good";
          named.push_back(std::move(pair));
          return;
        }
        Question(item.nodes, with(with(item.evidence, x.first), y.first),
                 "failed together, and then failed apart with nodes known good: results contradict a pair (a "
                 "flaky node?)");
        return;
      }
    }
  }

};

std::vector<Finding> Planner::State::Findings() const {
  SearchOutcome outcome{names, group_of, input.seed_groups, history, named, open_questions};
  if (!stopped.empty()) {
    for (const std::vector<Item>* list : {&items, &round_items, &deferred}) {
      for (const Item& item : *list) {
        Nodes nodes = item.nodes;
        for (const Nodes& part : item.parts) nodes = Union(nodes, part);
        for (const auto& [a, b] : item.candidates) nodes = Union(nodes, Union(a, b));
        nodes.erase(std::unique(nodes.begin(), nodes.end()), nodes.end());
        if (nodes.empty()) continue;
        outcome.questions.push_back({FindingKind::kInconclusive, nodes, {}, {}, item.evidence,
                                     stopped + "; still open: these nodes hold a fault not yet isolated"});
      }
    }
  }
  return JudgeFindings(outcome);
}

Planner::Planner(PlannerInput input) : state_(std::make_unique<State>()) {
  State& s = *state_;
  const int n = static_cast<int>(input.nodes.size());
  std::map<std::string, int> position;
  for (int i = 0; i < n; ++i) position.emplace(input.nodes[i], i);
  // Internal order: each seed group's nodes in its order, then the rest in allocation order.
  std::vector<int> group_of_input(n, -1);
  std::vector<int> order;
  for (std::size_t g = 0; g < input.seed_groups.size(); ++g) {
    for (const std::string& node : input.seed_groups[g].nodes) {
      const auto it = position.find(node);
      if (it == position.end() || group_of_input[it->second] >= 0) continue;
      group_of_input[it->second] = static_cast<int>(g);
      order.push_back(it->second);
    }
  }
  for (int i = 0; i < n; ++i) {
    if (group_of_input[i] < 0 && position[input.nodes[i]] == i) order.push_back(i);
  }
  std::map<std::string, int> internal;
  for (const int i : order) {
    internal.emplace(input.nodes[i], static_cast<int>(s.names.size()));
    s.names.push_back(input.nodes[i]);
    s.group_of.push_back(group_of_input[i]);
  }
  const int size = static_cast<int>(s.names.size());
  s.good.assign(size, 0);
  s.passes.assign(size, 0);
  s.known_good.assign(size, 0);
  for (const std::string& node : input.known_good) {
    const auto it = internal.find(node);
    if (it != internal.end()) s.good[it->second] = s.known_good[it->second] = 1;
  }
  s.budget = input.round_budget > 0 ? input.round_budget : DefaultRoundBudget(size);
  s.split_rounds = std::min(input.split_rounds > 0 ? input.split_rounds : DefaultSplitRounds(size), s.budget);
  s.cap = input.node_cap > 1 ? input.node_cap : 0;
  s.input = std::move(input);
  if (size >= 2) {
    Item screen;
    screen.kind = ItemKind::kScreen;
    for (int i = 0; i < size; ++i) screen.nodes.push_back(i);
    s.items.push_back(std::move(screen));
  } else {
    s.finished = true;  // one node has no collective between nodes to test
  }
}

Planner::Planner(Planner&&) noexcept = default;
Planner& Planner::operator=(Planner&&) noexcept = default;
Planner::~Planner() = default;

bool Planner::Done() const { return state_->finished || !state_->stopped.empty(); }

Round Planner::NextRound() {
  State& s = *state_;
  Round round;
  round.number = s.RoundNumber();
  if (Done() || s.awaiting) return round;
  if (s.items.empty()) {
    s.finished = true;
    return round;
  }
  if (round.number > s.budget) {
    s.stopped = "the round budget of " + std::to_string(s.budget) + " rounds ran out";
    return round;
  }
  State::Pool pool;
  std::vector<char> busy(s.names.size(), 0);
  for (const Item& item : s.items) {
    for (const int node : item.nodes) busy[node] = 1;
    for (const Nodes& part : item.parts) {
      for (const int node : part) busy[node] = 1;
    }
  }
  // Partners that passed twice or more first: a flaky node passes now and then, rarely twice.
  for (const bool twice : {true, false}) {
    for (std::size_t node = 0; node < s.names.size(); ++node) {
      if (s.good[node] && !busy[node] && (s.passes[node] >= 2) == twice) pool.free.push_back(static_cast<int>(node));
    }
  }
  s.round_items.clear();
  s.deferred.clear();
  s.planned.clear();
  std::vector<Item> work = std::move(s.items);
  s.items.clear();
  for (std::size_t w = 0; w < work.size(); ++w) {
    Item item = std::move(work[w]);
    std::vector<Planned> tests;
    const int index = static_cast<int>(s.round_items.size());
    if (!s.PlanItem(item, index, pool, tests)) {
      s.deferred.push_back(std::move(item));
      continue;
    }
    if (tests.empty() && item.kind == ItemKind::kSuspect) {
      // Every part to test was a single node known good: judged now, without a test.
      std::vector<Item> judged;
      s.Resolve(item, {}, judged);
      for (Item& next : judged) work.push_back(std::move(next));
      continue;
    }
    if (tests.empty()) continue;  // dropped (above the cap) with a question
    s.planned.insert(s.planned.end(), tests.begin(), tests.end());
    s.round_items.push_back(std::move(item));
  }
  if (s.planned.empty()) {
    s.items = std::move(s.deferred);
    s.deferred.clear();
    if (s.items.empty()) {
      s.finished = true;
    } else {
      s.stopped = "no node known good is left to pair a suspect with";
    }
    return round;
  }
  for (const Planned& planned : s.planned) round.tests.push_back({s.Names(planned.nodes), planned.purpose});
  s.awaiting = true;
  return round;
}

void Planner::Record(const std::vector<TestResult>& results) {
  State& s = *state_;
  if (!s.awaiting) return;
  s.awaiting = false;
  if (results.size() != s.planned.size()) {
    s.items = std::move(s.round_items);
    s.round_items.clear();
    s.stopped = "round " + std::to_string(s.RoundNumber()) + " has " + std::to_string(results.size()) +
                " results for " + std::to_string(s.planned.size()) + " tests";
    return;
  }
  const int round = s.RoundNumber();
  std::vector<DoneTest> done;
  for (std::size_t i = 0; i < results.size(); ++i) done.push_back({s.planned[i].nodes, s.planned[i].purpose, results[i]});
  s.history.push_back(std::move(done));
  for (const DoneTest& test : s.history.back()) {
    if (!Bad(test.result.outcome)) s.Good(test.nodes);
  }
  std::vector<Item> next;
  for (std::size_t item = 0; item < s.round_items.size(); ++item) {
    std::vector<std::pair<TestId, const Planned*>> tests;
    for (std::size_t i = 0; i < s.planned.size(); ++i) {
      if (s.planned[i].item == static_cast<int>(item)) tests.push_back({TestId{round, static_cast<int>(i)}, &s.planned[i]});
    }
    s.Resolve(s.round_items[item], tests, next);
  }
  for (Item& item : s.deferred) next.push_back(std::move(item));
  s.deferred.clear();
  s.round_items.clear();
  s.planned.clear();
  s.items = std::move(next);
  if (s.items.empty()) s.finished = true;
}

void Planner::Stop(const std::string& why) {
  State& s = *state_;
  if (Done()) return;
  if (s.awaiting) {  // the round in flight is lost: its items stay open
    for (Item& item : s.round_items) s.items.push_back(std::move(item));
    s.round_items.clear();
    s.awaiting = false;
  }
  s.stopped = why.empty() ? "stopped" : why;
}

std::vector<Finding> Planner::Findings() const { return state_->Findings(); }

int Planner::RoundsRun() const { return static_cast<int>(state_->history.size()); }

int Planner::TestsRun() const {
  int tests = 0;
  for (const auto& round : state_->history) tests += static_cast<int>(round.size());
  return tests;
}

}  // namespace gpuconform::isolation
