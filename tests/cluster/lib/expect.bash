# shellcheck shell=bash disable=SC2154  # the variables that cluster_case sets
# Sourced by tests/cluster/cluster_case for its cases: pass, fail and finish, which count the
# case's assertions and end it, and the expect_* assertions on a run's exit status ($status),
# JUnit report ($junit), results document and what it leaves behind. They read $LC, $work, $repo,
# $cluster, $schemas and $case_name, which cluster_case sets.

passed=0
failed=0
pass() { echo "ok: $*"; passed=$((passed + 1)); }
fail() { echo "FAIL: $*"; failed=$((failed + 1)); }
finish() {
  echo "$passed passed, $failed failed"
  if [ "$failed" -ne 0 ]; then
    "$cluster" collect-logs "$work/logs-$case_name" >/dev/null 2>&1 || true
    echo "cluster logs: $work/logs-$case_name"
    exit 1
  fi
  exit 0
}

expect_status() {
  if [ "$status" -eq "$1" ]; then pass "exit status $1"; else fail "exit status $status, expected $1"; fi
}

# verdict_of TESTCASE -> pass|failure|error|skipped|missing
verdict_of() {
  local tc=$1
  if [ ! -f "$junit" ]; then echo missing; return; fi
  local found
  found=$(xmllint --xpath "count(//testcase[@name='$tc'])" "$junit" 2>/dev/null || echo 0)
  if [ "$found" = "0" ]; then echo missing; return; fi
  for kind in failure error skipped; do
    if [ "$(xmllint --xpath "count(//testcase[@name='$tc']/$kind)" "$junit")" != "0" ]; then echo "$kind"; return; fi
  done
  echo pass
}

expect_verdict() {  # TESTCASE VERDICT [TEXT that the failure message must contain]
  local got
  got=$(verdict_of "$1")
  if [ "$got" != "$2" ]; then fail "$1 is $got, expected $2"; return; fi
  if [ -n "${3:-}" ] && ! xmllint --xpath "string(//testcase[@name='$1']/*[1]/@message)" "$junit" | grep -qF -- "$3"; then
    fail "$1 message lacks '$3': $(xmllint --xpath "string(//testcase[@name='$1']/*[1]/@message)" "$junit")"
    return
  fi
  pass "$1 is $2${3:+ naming '$3'}"
}

# property_of NAME -> the report's value of property NAME ("" when absent)
property_of() {
  xmllint --xpath "string(//property[@name='$1']/@value)" "$junit" 2>/dev/null || true
}

expect_property() {  # NAME TEXT: the property's value contains TEXT
  local value
  value=$(property_of "$1")
  if printf '%s' "$value" | grep -qF -- "$2"; then pass "$1 = '$value' has '$2'"; else fail "$1 = '$value' lacks '$2'"; fi
}

expect_only_user_file_left() {
  local left
  left=$(ls -A "$target" | tr '\n' ' ')
  [ "$left" = "user-step-100.pt " ] && pass "only the user's file is left in the target" || fail "target holds: $left"
  [ "$(cat "$target/user-step-100.pt")" = "the user's own checkpoint" ] && pass "the user's file is untouched" ||
    fail "the user's file changed"
}

expect_valid_report() {
  if [ ! -f "$junit" ]; then fail "no JUnit report written"; return; fi
  pass "JUnit report written"
  if [ -d "$schemas" ]; then
    for xsd in jenkins-xunit-junit-10 windyroad-JUnit; do
      if xmllint --noout --schema "$schemas/$xsd.xsd" "$junit" 2>/dev/null; then pass "report validates against $xsd"
      else fail "report does not validate against $xsd"; fi
    done
  else
    echo "note: $schemas is absent; schema validation skipped"
  fi
}

# results_json_holds FILE: FILE validates against the shipped results schema, and the Python
# read from stdin holds of it (`doc` the document, `run` its run object, `results` its cases).
results_json_holds() {
  local checks
  checks=$(cat)
  python3 -c "import json, sys, jsonschema
doc = json.load(open(sys.argv[2]))
jsonschema.Draft202012Validator(json.load(open(sys.argv[1]))).validate(doc)
run, results = doc['run'], doc['results']
$checks" "$repo/schemas/results.schema.json" "$1"
}

# The code (type) of TESTCASE's failure, error or skip ("" for a pass).
code_of() {
  xmllint --xpath "string(//testcase[@name='$1']/*[1]/@type)" "$junit" 2>/dev/null || true
}

# Every failure's and error's code in the report, sorted and comma-separated.
report_codes() {
  (xmllint --xpath '//testcase/failure/@type | //testcase/error/@type' "$junit" 2>/dev/null || true) |
    sed -E 's/ *type="([^"]*)"/\1\n/g' | sort -u | sed '/^$/d' | paste -sd, -
}

# Seconds from epoch time $1 (with fractions) to $2 (default now), to a tenth.
seconds_between() {
  awk -v a="$1" -v b="${2:-$(date +%s.%N)}" 'BEGIN { printf "%.1f", b - a }'
}

# Passes when the report ($junit) was last written within $2 s after epoch time $1 (the signal,
# or the termination the run requested itself).
expect_report_written_within() {  # EPOCH_TIME SECONDS [WHAT happened at EPOCH_TIME]
  local after what=${3:-the signal}
  after=$(seconds_between "$1" "$(stat -c %.Y "$junit" 2>/dev/null || echo 0)")
  awk -v a="$after" -v l="$2" 'BEGIN { exit !(a <= l) }' &&
    pass "the report was last written $after s after $what (within $2 s)" ||
    fail "the report was last written $after s after $what, over $2 s"
}

# When the report says the termination arrived (epoch seconds; its incomplete property has
# "... at 2026-12-07T09:00:05Z", to the second).
termination_time_in_report() {
  date -d "$(property_of incomplete | grep -oE ' at [0-9T:-]+Z' | head -n 1 | cut -c5-)" +%s
}

# A terminated run's report: valid, complete=false, its incomplete property holding TEXT, and
# its results document ($results_json) valid with complete false and exit_status STATUS.
expect_partial_report() {  # TEXT STATUS
  expect_valid_report
  [ "$(property_of complete)" = false ] && pass "the JUnit report says complete=false" ||
    fail "the JUnit report says complete='$(property_of complete)'"
  expect_property incomplete "$1"
  if results_json_holds "$results_json" <<PY
assert run["complete"] is False, run
assert "$1" in run["incomplete"], run["incomplete"]
assert run["exit_status"] == $2, run["exit_status"]
PY
  then pass "the results document validates, with complete false, '$1' and exit_status $2"
  else fail "the results document is missing, invalid, or not a partial one with exit_status $2"; fi
}

# Passes once no process started from $LC/shared/bin (gpuconform, its workers, torchrun and
# its wrapper) nor a torchrun worker is left on any node, within 30 s.
expect_nothing_left() {
  local left since=$SECONDS
  while left=$(pgrep -af "$LC/shared/bin/|torchrun_worker\.py" || true); [ -n "$left" ] && [ $((SECONDS - since)) -lt 30 ]; do
    sleep 1
  done
  [ -z "$left" ] && pass "no gpuconform or torchrun process is left on any node ($((SECONDS - since)) s after the run)" ||
    fail "left after 30 s: $left"
}
