// The subcommand table. A new command adds one line here and one cmd_*.cpp.
#include <array>

#include "command.hpp"

namespace willfit::app {

int run_train(const std::vector<std::string>& args, Context& ctx);    // cmd_train.cpp
int run_devices(const std::vector<std::string>& args, Context& ctx);  // cmd_devices.cpp
int run_device(const std::vector<std::string>& args, Context& ctx);   // cmd_device.cpp
int run_models(const std::vector<std::string>& args, Context& ctx);   // cmd_models.cpp
int run_max(const std::vector<std::string>& args, Context& ctx);      // cmd_max.cpp
int run_which(const std::vector<std::string>& args, Context& ctx);    // cmd_which.cpp
int run_cost(const std::vector<std::string>& args, Context& ctx);     // cmd_cost.cpp
int run_local(const std::vector<std::string>& args, Context& ctx);    // cmd_local.cpp

// cmd_completions.cpp: the scripts, and the hidden word lists they ask for.
int run_completions(const std::vector<std::string>& args, Context& ctx);
int run_complete(const std::vector<std::string>& args, Context& ctx);

std::span<const Command> commands() {
  static const std::array table{
      Command{"train", "memory to train or fine-tune a model", run_train},
      Command{"devices", "list the devices willfit knows", run_devices},
      Command{"device", "show one device's spec sheet", run_device},
      Command{"models", "list the models willfit knows by name", run_models},
      Command{"max", "the largest model, context, batch or precision that fits", run_max},
      Command{"which", "the devices that fit a model, by price, memory or speed", run_which},
      Command{"cost", "own or rent: a device's price and power against an hourly rent", run_cost},
      Command{"local", "list the models already on this machine (Ollama, Hugging Face cache)",
              run_local},
      Command{"completions", "print the bash, zsh or fish completion script", run_completions},
      Command{"__complete", "", run_complete},  // hidden: no summary
  };
  return table;
}

}  // namespace willfit::app
