// SPDX-License-Identifier: GPL-3.0-or-later
// `rooftop devices`: the board catalog (resources/devices/*.json) as a table or JSON.
#include "cli/commands.h"
#include "cli/request_options.h"
#include "cli/unknown_option.h"
#include "core/common/argument_list.h"
#include "core/common/errors.h"
#include "core/report/device_writers.h"
#include "core/session/analysis_session.h"

#include <iostream>
#include <sstream>

namespace rooftop::cli {

namespace {

std::string helpText() {
    std::ostringstream out;
    out << "Usage: rooftop devices [--format table|json] [-o FILE]\n"
           "Lists the board catalog: id, name, GPU (SMs, CUDA cores, top clock, FP32 peak), memory "
           "(bus,\n"
           "peak bandwidth), number of stock modes, custom-grid size and the nvpmodel default mode.\n"
           "The catalog is $ROOFTOP_DATA_DIR/devices, else <prefix>/share/rooftop/devices, else the\n"
           "source tree's resources/devices (one JSON file per board, see its README.md).\n"
           "Discrete NVIDIA GPUs that the CUDA driver reports (libcuda.so.1, or\n"
           "$ROOFTOP_CUDA_LIBRARY) follow under \"Detected on this machine\"\n"
           "(JSON: \"detected\") with ids cuda:0, cuda:1, ...\n\n"
           "  --format F                table | json\n"
           "  -o, --output FILE         write to FILE instead of standard output\n";
    return out.str();
}

} // namespace

int runDevices(const std::vector<std::string>& argv) {
    ArgumentList args(argv);
    OutputChoice output;
    while (args.more()) {
        if (!args.nextIsOption())
            throw InputError("devices takes no positional argument, got '" + args.takePositional() + "'");
        const std::string option = args.takeOption();
        if (takeOutputOption(option, args, {"table", "json"}, output)) continue;
        if (option == "-h" || option == "--help") {
            std::cout << helpText();
            return ExitOk;
        } else {
            throw unknownOption("devices", option, helpText());
        }
    }
    const DeviceCatalog devices = loadDeviceCatalog();
    writeOutput(output.path, output.format == "json" ? devicesJson(devices) : devicesTable(devices));
    return ExitOk;
}

} // namespace rooftop::cli
