// Turning what the user typed into lib objects: MODEL (a size now; catalogue
// names and files come with their readers) and --device (a capacity now;
// named devices come with the device database). Errors are values.
#pragma once

#include <optional>
#include <string>

#include "sources/environment.hpp"
#include "willfit/core/expected.hpp"
#include "willfit/devices/device.hpp"
#include "willfit/models/model.hpp"

namespace willfit::app {

Expected<Model> resolve_model(const std::string& text, const Environment& env);
// The same, with the catalogue file given by --models (empty: the default one).
// `units`: how the notes of a model file print sizes (--units).
// `read_projector` false (--text-only, or --mmproj given): no projector is
// looked for (a GGUF repository's or folder's mmproj file, an Ollama
// projector layer), and none is read.
Expected<Model> resolve_model(const std::string& text, const Environment& env,
                              const std::string& models_file, UnitSystem units = UnitSystem::Mixed,
                              bool read_projector = true);
// `units`: how names of bare capacities ("8.00 GiB GPU") and notes print
// memory (--units). `ram` (--ram): the size of a system-memory device named
// without one ("cpu", "ddr5-5600-dual"); without it such a name is an error.
Expected<DeviceSet> resolve_devices(const std::string& text, const Environment& env,
                                    const std::string& devices_file = "",
                                    UnitSystem units = UnitSystem::Mixed,
                                    std::optional<Bytes> ram = std::nullopt);

}  // namespace willfit::app
