// willfit's executable: forwards to run(), which is the whole program.
#include <iostream>
#include <string>
#include <vector>

#include "cli.hpp"
#include "sources/environment.hpp"

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  const willfit::app::SystemEnvironment env;
  return willfit::app::run(args, std::cout, std::cerr, env);
}
