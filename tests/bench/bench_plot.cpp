// SPDX-License-Identifier: GPL-3.0-or-later
// Replot cost of the roofline plot: 5,000 layer points and 20 roofs (target: under 50 ms), offscreen.
#include "core/device/catalog.h"
#include "core/device/power_mode.h"
#include "core/device/runtime_profile.h"
#include "plots/op_palette.h"
#include "plots/roofline_plot.h"

#include <benchmark/benchmark.h>

#include <QApplication>

#include <cmath>
#include <random>

namespace {

rooftop::plots::RooflineScene syntheticScene(int layers, int roofs) {
    using namespace rooftop;
    const std::vector<DeviceSpec> catalog = loadCatalog(defaultCatalogFolder());
    const DeviceSpec& device = findDevice(catalog, "agx-orin-64gb");
    const std::vector<PowerMode> grid = gridPowerModes(device);
    const RuntimeProfile runtime = findRuntime("tensorrt");
    plots::RooflineScene scene;
    scene.classes = {ComputeClass::Fp32CudaCore, ComputeClass::TensorFp16};
    for (int i = 0; i < roofs / 2; ++i) {
        const PowerMode& mode = grid[size_t(i) * grid.size() / size_t(roofs / 2)];
        scene.modes.push_back({QString::fromStdString(mode.name), deriveModeProfile(device, mode, runtime),
                               plots::colorForMode(i), false});
    }
    std::mt19937 random(1);
    std::uniform_real_distribution<double> exponent(-2, 3), efficiency(0.05, 1.0);
    const char* ops[] = {"Conv", "MatMul", "Relu", "Add", "Softmax", "LayerNormalization", "Gelu", "Mul", "Transpose",
                         "Reshape", "Concat", "MaxPool"};
    for (int i = 0; i < layers; ++i) {
        plots::LayerMarker marker;
        marker.nodeIndex = i;
        marker.name = QStringLiteral("layer%1").arg(i);
        marker.op = QString::fromLatin1(ops[i % 12]);
        marker.intensity = std::pow(10.0, exponent(random));
        marker.flopsPerSecond = std::min(5e12, marker.intensity * 2e11) * efficiency(random);
        marker.flopsPerJoule = marker.flopsPerSecond / 20;
        marker.shareOfTime = 1.0 / layers * efficiency(random) * 2;
        scene.layers.push_back(marker);
    }
    return scene;
}

void BM_ReplotRoofline(benchmark::State& state) {
    rooftop::plots::RooflinePlot plot(rooftop::plots::RooflineKind::Time);
    plot.resize(1200, 800);
    plot.setScene(syntheticScene(int(state.range(0)), int(state.range(1))));
    for (auto _ : state) plot.replot(QCustomPlot::rpImmediateRefresh);
    state.counters["roofs"] = plot.roofCount();
    state.counters["points"] = plot.layerPointCount();
}
BENCHMARK(BM_ReplotRoofline)->Args({5000, 20})->Args({500, 8})->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();

void BM_SetSceneAndReplot(benchmark::State& state) {
    rooftop::plots::RooflinePlot plot(rooftop::plots::RooflineKind::Time);
    plot.resize(1200, 800);
    const rooftop::plots::RooflineScene scene = syntheticScene(5000, 20);
    for (auto _ : state) {
        plot.setScene(scene);
        plot.replot(QCustomPlot::rpImmediateRefresh);
    }
}
BENCHMARK(BM_SetSceneAndReplot)->Unit(benchmark::kMillisecond)->MeasureProcessCPUTime();

} // namespace

int main(int argc, char** argv) {
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    benchmark::Initialize(&argc, argv);
    benchmark::RunSpecifiedBenchmarks();
    benchmark::Shutdown();
    return 0;
}
