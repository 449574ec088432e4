# shellcheck shell=bash disable=SC2154  # the variables that cluster_case sets
# Sourced by tests/cluster/cluster_case and tests/cluster/fault_matrix: install_binary, with
# $binary and $LC set.
# Puts the binary under test where every node runs it from. An identical copy is left alone;
# a different one waits, up to 60 s, for the ranks still running the old one to end: a node
# whose slurmd was killed keeps its rank up to 30 s, and cp then fails with 'Text file busy'.
# (Replacing the file instead of writing it would detach node3's bind mount of it.)
install_binary() {
  mkdir -p "$LC/shared/bin"
  local target="$LC/shared/bin/gpuconform" waited_s=0
  cmp -s "$binary" "$target" && return 0
  until cp "$binary" "$target" 2>/dev/null; do
    if [ "$waited_s" -ge 60 ]; then cp "$binary" "$target"; return; fi
    sleep 1
    waited_s=$((waited_s + 1))
  done
}

