#include "harness/util/child_verbs.h"

#include <map>

namespace gpuconform {

namespace {

// A function-local static, so registrations from any translation unit's static
// initialisers find it constructed.
std::map<std::string, ChildVerbMain, std::less<>>& Verbs() {
  static std::map<std::string, ChildVerbMain, std::less<>> verbs;
  return verbs;
}

}  // namespace

ChildVerbRegistration::ChildVerbRegistration(const char* verb, ChildVerbMain main) { Verbs()[verb] = main; }

ChildVerbMain FindChildVerb(std::string_view verb) {
  const auto it = Verbs().find(verb);
  return it == Verbs().end() ? nullptr : it->second;
}

}  // namespace gpuconform
