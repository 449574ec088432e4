#include "probes/cuda_p2p/cuda_p2p_probe.h"

#include <fmt/format.h>

#include <algorithm>
#include <chrono>
#include <cstddef>
#include <string>
#include <vector>

#include "harness/util/dynamic_library.h"
#include "harness/util/record_lines.h"
#include "probes/cuda_driver/cuda_driver.h"

namespace gpuconform::cuda_p2p {

namespace {

constexpr std::size_t kBufferBytes = std::size_t{256} << 20;
constexpr int kWarmupIterations = 2;
constexpr int kTimedIterations = 5;
// 56 ordered pairs of 8 GPUs take about a second over NVLink; a node whose copies crawl over
// PCIe must not hold the whole run, so measuring stops here and says so.
constexpr auto kTimeBudget = std::chrono::seconds(90);

// The CUDA runtime API this probe needs, following cuda_runtime_api.h (CUDA 11-13); there is
// no CUDA toolkit on most build machines. cudaError_t is an int enum; 0 is cudaSuccess.
using CudaError = int;
using CudaStream = void*;  // cudaStream_t
using CudaEvent = void*;   // cudaEvent_t
constexpr CudaError kCudaSuccess = 0;
constexpr CudaError kCudaErrorPeerAccessAlreadyEnabled = 704;
constexpr unsigned kCudaStreamNonBlocking = 1;

struct Cuda {
  CudaError (*runtime_version)(int*) = nullptr;                               // cudaRuntimeGetVersion
  CudaError (*driver_version)(int*) = nullptr;                                // cudaDriverGetVersion
  CudaError (*device_count)(int*) = nullptr;                                  // cudaGetDeviceCount
  CudaError (*set_device)(int) = nullptr;                                     // cudaSetDevice
  CudaError (*bus_id)(char*, int, int) = nullptr;                             // cudaDeviceGetPCIBusId
  CudaError (*can_access_peer)(int*, int, int) = nullptr;                     // cudaDeviceCanAccessPeer
  CudaError (*enable_peer)(int, unsigned) = nullptr;                          // cudaDeviceEnablePeerAccess
  CudaError (*malloc)(void**, std::size_t) = nullptr;                         // cudaMalloc
  CudaError (*free)(void*) = nullptr;                                         // cudaFree
  CudaError (*stream_create)(CudaStream*, unsigned) = nullptr;                // cudaStreamCreateWithFlags
  CudaError (*stream_destroy)(CudaStream) = nullptr;                          // cudaStreamDestroy
  CudaError (*stream_wait_event)(CudaStream, CudaEvent, unsigned) = nullptr;  // cudaStreamWaitEvent
  CudaError (*event_create)(CudaEvent*) = nullptr;                            // cudaEventCreate
  CudaError (*event_destroy)(CudaEvent) = nullptr;                            // cudaEventDestroy
  CudaError (*event_record)(CudaEvent, CudaStream) = nullptr;                 // cudaEventRecord
  CudaError (*event_synchronize)(CudaEvent) = nullptr;                        // cudaEventSynchronize
  CudaError (*event_elapsed)(float*, CudaEvent, CudaEvent) = nullptr;         // cudaEventElapsedTime
  CudaError (*memcpy_peer_async)(void*, int, const void*, int, std::size_t,
                                 CudaStream) = nullptr;  // cudaMemcpyPeerAsync
  const char* (*error_string)(CudaError) = nullptr;      // cudaGetErrorString

  bool Complete() const {
    return runtime_version && driver_version && device_count && set_device && bus_id && can_access_peer &&
           enable_peer && malloc && free && stream_create && stream_destroy && stream_wait_event && event_create &&
           event_destroy && event_record && event_synchronize && event_elapsed && memcpy_peer_async;
  }
  std::string ErrorText(const char* call, CudaError code) const {
    const char* text = error_string ? error_string(code) : nullptr;
    return fmt::format("{}: {} (cudaError {})", call, text ? text : "unknown error", code);
  }
};

Cuda Resolve(const DynamicLibrary& library) {
  Cuda api;
  api.runtime_version = library.Symbol<decltype(api.runtime_version)>("cudaRuntimeGetVersion");
  api.driver_version = library.Symbol<decltype(api.driver_version)>("cudaDriverGetVersion");
  api.device_count = library.Symbol<decltype(api.device_count)>("cudaGetDeviceCount");
  api.set_device = library.Symbol<decltype(api.set_device)>("cudaSetDevice");
  api.bus_id = library.Symbol<decltype(api.bus_id)>("cudaDeviceGetPCIBusId");
  api.can_access_peer = library.Symbol<decltype(api.can_access_peer)>("cudaDeviceCanAccessPeer");
  api.enable_peer = library.Symbol<decltype(api.enable_peer)>("cudaDeviceEnablePeerAccess");
  api.malloc = library.Symbol<decltype(api.malloc)>("cudaMalloc");
  api.free = library.Symbol<decltype(api.free)>("cudaFree");
  api.stream_create = library.Symbol<decltype(api.stream_create)>("cudaStreamCreateWithFlags");
  api.stream_destroy = library.Symbol<decltype(api.stream_destroy)>("cudaStreamDestroy");
  api.stream_wait_event = library.Symbol<decltype(api.stream_wait_event)>("cudaStreamWaitEvent");
  api.event_create = library.Symbol<decltype(api.event_create)>("cudaEventCreate");
  api.event_destroy = library.Symbol<decltype(api.event_destroy)>("cudaEventDestroy");
  api.event_record = library.Symbol<decltype(api.event_record)>("cudaEventRecord");
  api.event_synchronize = library.Symbol<decltype(api.event_synchronize)>("cudaEventSynchronize");
  api.event_elapsed = library.Symbol<decltype(api.event_elapsed)>("cudaEventElapsedTime");
  api.memcpy_peer_async = library.Symbol<decltype(api.memcpy_peer_async)>("cudaMemcpyPeerAsync");
  api.error_string = library.Symbol<decltype(api.error_string)>("cudaGetErrorString");
  return api;
}

// Per device: a source and a destination buffer, a stream and two events, all on that device.
struct DeviceState {
  void* source = nullptr;
  void* destination = nullptr;
  CudaStream stream = nullptr;
  CudaEvent start = nullptr;
  CudaEvent stop = nullptr;
  std::string error;  // why the device could not be set up; empty when it could
};

std::string SetUp(const Cuda& api, int device, DeviceState& state) {
  CudaError code = api.set_device(device);
  if (code != kCudaSuccess) return api.ErrorText("cudaSetDevice", code);
  if ((code = api.malloc(&state.source, kBufferBytes)) != kCudaSuccess) return api.ErrorText("cudaMalloc", code);
  if ((code = api.malloc(&state.destination, kBufferBytes)) != kCudaSuccess) return api.ErrorText("cudaMalloc", code);
  if ((code = api.stream_create(&state.stream, kCudaStreamNonBlocking)) != kCudaSuccess) {
    return api.ErrorText("cudaStreamCreateWithFlags", code);
  }
  if ((code = api.event_create(&state.start)) != kCudaSuccess) return api.ErrorText("cudaEventCreate", code);
  if ((code = api.event_create(&state.stop)) != kCudaSuccess) return api.ErrorText("cudaEventCreate", code);
  return "";
}

void TearDown(const Cuda& api, int device, DeviceState& state) {
  if (api.set_device(device) != kCudaSuccess) return;
  if (state.stream) api.stream_destroy(state.stream);
  if (state.start) api.event_destroy(state.start);
  if (state.stop) api.event_destroy(state.stop);
  if (state.source) api.free(state.source);
  if (state.destination) api.free(state.destination);
}

// One timed copy, in seconds, or the error. One way: `to` reads from `from` on its own stream
// (nvbandwidth's memcpy_read_ce, which the published floors use). Both ways: each GPU reads
// from the other at once; the second stream starts on the first's start event and the first
// ends on the second's stop event, so one interval covers both copies.
struct Timed {
  double seconds = 0;
  std::string error;
};

Timed TimeCopy(const Cuda& api, std::vector<DeviceState>& devices, int from, int to, bool both_ways) {
  DeviceState& reader = devices[to];
  DeviceState& other = devices[from];
  auto fail = [&](const char* call, CudaError code) { return Timed{0, api.ErrorText(call, code)}; };
  CudaError code = api.event_record(reader.start, reader.stream);
  if (code != kCudaSuccess) return fail("cudaEventRecord", code);
  if (both_ways && (code = api.stream_wait_event(other.stream, reader.start, 0)) != kCudaSuccess) {
    return fail("cudaStreamWaitEvent", code);
  }
  code = api.memcpy_peer_async(reader.destination, to, other.source, from, kBufferBytes, reader.stream);
  if (code != kCudaSuccess) return fail("cudaMemcpyPeerAsync", code);
  if (both_ways) {
    code = api.memcpy_peer_async(other.destination, from, reader.source, to, kBufferBytes, other.stream);
    if (code != kCudaSuccess) return fail("cudaMemcpyPeerAsync", code);
    if ((code = api.event_record(other.stop, other.stream)) != kCudaSuccess) return fail("cudaEventRecord", code);
    if ((code = api.stream_wait_event(reader.stream, other.stop, 0)) != kCudaSuccess) {
      return fail("cudaStreamWaitEvent", code);
    }
  }
  if ((code = api.event_record(reader.stop, reader.stream)) != kCudaSuccess) return fail("cudaEventRecord", code);
  if ((code = api.event_synchronize(reader.stop)) != kCudaSuccess) return fail("cudaEventSynchronize", code);
  float ms = 0;
  if ((code = api.event_elapsed(&ms, reader.start, reader.stop)) != kCudaSuccess) {
    return fail("cudaEventElapsedTime", code);
  }
  if (ms <= 0) return Timed{0, "cudaEventElapsedTime gave a non-positive interval"};
  return Timed{ms / 1000.0, ""};
}

// The record line of one pair's measurement: a bandwidth line, or an error line.
std::string MeasurePair(const Cuda& api, std::vector<DeviceState>& devices, int from, int to, bool both_ways) {
  std::vector<double> gb_per_s;
  for (int i = 0; i < kWarmupIterations + kTimedIterations; ++i) {
    const Timed timed = TimeCopy(api, devices, from, to, both_ways);
    if (!timed.error.empty()) {
      return FormatRecord("error", {{"from", std::to_string(from)},
                                    {"to", std::to_string(to)},
                                    {"message", (both_ways ? "both ways: " : "one way: ") + timed.error}});
    }
    if (i >= kWarmupIterations) {
      gb_per_s.push_back((both_ways ? 2.0 : 1.0) * static_cast<double>(kBufferBytes) / 1e9 / timed.seconds);
    }
  }
  std::sort(gb_per_s.begin(), gb_per_s.end());
  return FormatRecord("bandwidth", {{"mode", both_ways ? "bidirectional" : "unidirectional"},
                                    {"from", std::to_string(from)},
                                    {"to", std::to_string(to)},
                                    {"median_gb_per_s", fmt::format("{:.2f}", gb_per_s[gb_per_s.size() / 2])}});
}

std::string Measure(const Cuda& api, int count, std::string& text) {
  std::vector<DeviceState> devices(static_cast<std::size_t>(count));
  for (int d = 0; d < count; ++d) {
    char bus[32] = {};
    const bool named = api.bus_id(bus, sizeof(bus), d) == kCudaSuccess;
    text += FormatRecord(
                "device",
                named ? std::vector<std::pair<std::string, std::string>>{{"index", std::to_string(d)}, {"bus_id", bus}}
                      : std::vector<std::pair<std::string, std::string>>{{"index", std::to_string(d)}}) +
            "\n";
  }
  std::vector<std::vector<bool>> access(count, std::vector<bool>(count, false));
  for (int a = 0; a < count; ++a) {
    for (int b = 0; b < count; ++b) {
      if (a == b) continue;
      int can = 0;
      const CudaError code = api.can_access_peer(&can, a, b);
      access[a][b] = code == kCudaSuccess && can == 1;
      if (code != kCudaSuccess) {
        text += FormatRecord("error", {{"from", std::to_string(a)},
                                       {"to", std::to_string(b)},
                                       {"message", api.ErrorText("cudaDeviceCanAccessPeer", code)}}) +
                "\n";
      }
      text += FormatRecord(
                  "access",
                  {{"from", std::to_string(a)}, {"to", std::to_string(b)}, {"peer", access[a][b] ? "yes" : "no"}}) +
              "\n";
    }
  }
  for (int d = 0; d < count; ++d) devices[d].error = SetUp(api, d, devices[d]);
  // Mapping peer memory is what lets the copy engine go GPU to GPU over NVLink; without it
  // cudaMemcpyPeerAsync stages through the host.
  for (int a = 0; a < count; ++a) {
    for (int b = 0; b < count; ++b) {
      if (a == b || !access[a][b] || api.set_device(a) != kCudaSuccess) continue;
      const CudaError code = api.enable_peer(b, 0);
      if (code != kCudaSuccess && code != kCudaErrorPeerAccessAlreadyEnabled) {
        access[a][b] = false;
        text += FormatRecord("error", {{"from", std::to_string(a)},
                                       {"to", std::to_string(b)},
                                       {"message", api.ErrorText("cudaDeviceEnablePeerAccess", code)}}) +
                "\n";
      }
    }
  }
  const auto deadline = std::chrono::steady_clock::now() + kTimeBudget;
  std::string stopped;
  auto measure = [&](int from, int to, bool both_ways) {
    if (!stopped.empty()) return;
    if (std::chrono::steady_clock::now() > deadline) {
      stopped = fmt::format("time budget of {} s spent", kTimeBudget.count());
      return;
    }
    const std::string& broken = !devices[from].error.empty() ? devices[from].error : devices[to].error;
    if (!broken.empty()) {
      text += FormatRecord("error", {{"from", std::to_string(from)}, {"to", std::to_string(to)}, {"message", broken}}) +
              "\n";
      return;
    }
    text += MeasurePair(api, devices, from, to, both_ways) + "\n";
  };
  // Only pairs that map each other both ways are measured, like the published floors.
  for (int a = 0; a < count; ++a) {
    for (int b = 0; b < count; ++b) {
      if (a != b && access[a][b] && access[b][a]) measure(a, b, false);
    }
  }
  for (int a = 0; a < count; ++a) {
    for (int b = a + 1; b < count; ++b) {
      if (access[a][b] && access[b][a]) measure(a, b, true);
    }
  }
  for (int d = 0; d < count; ++d) TearDown(api, d, devices[d]);
  return stopped;
}

}  // namespace

RawOutput CudaP2pOutput(const LiveContext& context) {
  const std::string origin = context.host + ": CUDA runtime P2P (cudaDeviceCanAccessPeer, cudaMemcpyPeerAsync)";
  const std::string& library_dir = context.options.gpu_library_dir;
  // The driver first: where it cannot start, its own words say why, and the runtime's would not.
  const cuda_driver::CudaDriverStart started = cuda_driver::StartCudaDriver(library_dir);
  if (!started.ok()) {
    return {started.library_missing ? ProbeStatus::kToolMissing : ProbeStatus::kFailed, "", origin,
            context.host + ": " + started.error};
  }
  RawOutput out;
  out.origin = origin;
  // Kept loaded until the process exits: the CUDA runtime registers exit handlers that live
  // inside the library, so unloading it would leave them pointing at unmapped code.
  static auto* const library = [&library_dir] {
    auto opened =
        DynamicLibrary::Open({"libcudart.so.13", "libcudart.so.12", "libcudart.so.11.0", "libcudart.so"}, library_dir);
    return opened ? new DynamicLibrary(std::move(opened).value()) : nullptr;
  }();
  if (library == nullptr) {
    out.status = ProbeStatus::kToolMissing;
    out.detail = context.host + ": no CUDA runtime (libcudart.so.13, .12, .11.0 and libcudart.so not found)";
    return out;
  }
  const Cuda api = Resolve(*library);
  if (!api.Complete()) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": " + library->name() + " lacks a function the P2P probe needs";
    return out;
  }
  int runtime = 0;
  int driver = 0;
  api.runtime_version(&runtime);
  api.driver_version(&driver);
  int count = 0;
  if (const CudaError code = api.device_count(&count); code != kCudaSuccess) {
    out.status = ProbeStatus::kFailed;
    out.detail = context.host + ": " + api.ErrorText("cudaGetDeviceCount", code);
    return out;
  }
  out.text = "# cuda-p2p.txt v1: gpuconform's CUDA runtime P2P probe; format in probes/cuda_p2p/cuda_p2p_parse.h\n" +
             FormatRecord("cuda", {{"library", library->name()},
                                   {"runtime_version", std::to_string(runtime)},
                                   {"driver_version", std::to_string(driver)},
                                   {"device_count", std::to_string(count)},
                                   {"buffer_bytes", std::to_string(kBufferBytes)},
                                   {"warmup_iterations", std::to_string(kWarmupIterations)},
                                   {"timed_iterations", std::to_string(kTimedIterations)}}) +
             "\n";
  const std::string stopped = Measure(api, count, out.text);
  if (!stopped.empty()) out.text += FormatRecord("stopped", {{"reason", stopped}}) + "\n";
  out.status = ProbeStatus::kOk;
  return out;
}

const ProbeSpec& CudaP2pProbe() {
  static const ProbeSpec kSpec = [] {
    ProbeSpec spec = BuiltinProbe("cuda-p2p", ProbeScope::kNode, "cuda-p2p.txt", CudaP2pOutput);
    spec.timeout_ms = static_cast<int>(std::chrono::milliseconds(kTimeBudget).count());
    return Active(spec);
  }();
  return kSpec;
}

}  // namespace gpuconform::cuda_p2p
