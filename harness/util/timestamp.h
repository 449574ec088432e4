// Timestamps: one format for every time gpuconform writes (report metadata, snapshot
// manifests, JUnit): UTC, ISO 8601, to the second, "2026-12-03T15:26:00Z". UTC, so runs on
// nodes in different time zones, and a fleet's history, compare without conversion.
#pragma once

#include <chrono>
#include <string>

namespace gpuconform {

std::string UtcIso8601(std::chrono::system_clock::time_point when = std::chrono::system_clock::now());

}  // namespace gpuconform
