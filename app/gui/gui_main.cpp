// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/gui_main.h"

#include "core/advisor/advisor.h"
#include "core/common/argument_list.h"
#include "core/common/decimal_text.h"
#include "core/common/edit_distance.h"
#include "core/common/errors.h"
#include "core/cost/analysis_settings.h"
#include "core/onnx/batch_list.h"
#include "core/onnx/dim_binding.h"
#include "gui/advisor_panel.h"
#include "gui/analysis_toolbar.h"
#include "gui/main_window.h"
#include "gui/model_attachments.h"
#include "gui/theme.h"

#include <QApplication>
#include <QComboBox>
#include <QFileInfo>
#include <QGuiApplication>
#include <QIcon>
#include <QSpinBox>
#include <QStringList>
#include <algorithm>
#include <cstdlib>
#include <iostream>
#include <optional>

namespace rooftop::gui {

GuiOptions parseGuiOptions(const std::vector<std::string>& args) {
    GuiOptions options;
    std::string phaseGiven, optimizerGiven;
    ArgumentList list(args); // the commands' reading: --device=ID, a second --device refused, --dim repeated
    DimBindings dimsGiven;   // every --dim together: a name bound to two values is refused, as the CLI does
    while (list.more()) {
        if (!list.nextIsOption()) {
            const std::string arg = list.takePositional();
            const QFileInfo file(QString::fromStdString(arg));
            if (!file.exists() && file.suffix().compare(QLatin1String("onnx"), Qt::CaseInsensitive) != 0)
                throw InputError("unknown command '" + arg + "' (try rooftop --help)");
            options.modelPaths.push_back(arg);
            continue;
        }
        const std::string arg = list.takeOption();
        if (arg == "--device") {
            options.deviceId = list.takeValue(arg);
        } else if (arg == "--view") {
            options.view = list.takeValue(arg);
            if (options.view != "time" && options.view != "energy" && options.view != "modes" &&
                options.view != "ops")
                throw InputError("--view must be time, energy, modes or ops, got '" + options.view + "'");
        } else if (arg == "--runs") {
            options.runsPath = list.takeValue(arg);
        } else if (arg == "--predictor") {
            options.predictorPath = list.takeValue(arg);
        } else if (arg == "--layer-profile") {
            options.layerProfilePath = list.takeValue(arg);
        } else if (arg == "--runtime-file") {
            options.runtimePath = list.takeValue(arg);
        } else if (arg == "--layer-info") {
            options.layerInfoPath = list.takeValue(arg);
        } else if (arg == "--measured-mode") {
            options.measuredMode = list.takeValue(arg);
        } else if (arg == "--modes") {
            options.modeSet = list.takeValue(arg);
            if (options.modeSet != "stock" && options.modeSet != "grid" && options.modeSet != "all")
                throw InputError("--modes must be stock, grid or all in the window, got '" + options.modeSet +
                                 "'");
        } else if (arg == "--latency-slo" || arg == "--power-cap") {
            const std::string text = list.takeValue(arg);
            const std::optional<double> number = readDecimal(text);
            if (!number || !(*number > 0))
                throw InputError(arg + " takes a positive number, got '" + text + "'");
            (arg == "--latency-slo" ? options.latencySloMs : options.powerCapWatts) = *number;
        } else if (arg == "--dim") {
            const std::string dim = list.takeValue(arg);
            parseDimOption(dim, dimsGiven); // a bad one fails here, not in the window
            options.dims.push_back(dim);
        } else if (arg == "--objective") {
            options.objective = list.takeValue(arg);
            if (!parseObjective(options.objective))
                throw InputError("--objective must be energy, latency or efficiency, got '" +
                                 options.objective + "'");
        } else if (arg == "--batch") {
            const std::string text = list.takeValue(arg);
            const int64_t batch = parseBatchSize(text, arg); // the CLI's reading and its errors
            if (batch > AnalysisToolbar::kMaxBatch)
                throw InputError("--batch: the window takes at most " +
                                 std::to_string(AnalysisToolbar::kMaxBatch) + ", got '" + text + "'");
            options.batch = int(batch);
        } else if (arg == "--phase") {
            const std::string phase = list.takeValue(arg);
            if (!parsePhase(phase))
                throw InputError("--phase must be inference or training, got '" + phase + "'");
            phaseGiven = phase;
        } else if (arg == "--optimizer") {
            const std::string optimizer = list.takeValue(arg);
            if (!parseOptimizer(optimizer))
                throw InputError("--optimizer must be sgd, momentum or adam, got '" + optimizer + "'");
            optimizerGiven = optimizer;
        } else if (arg == "--theme") {
            options.theme = list.takeValue(arg);
            if (options.theme != "light" && options.theme != "dark")
                throw InputError("--theme must be light or dark, got '" + options.theme + "'");
        } else {
            static const std::vector<std::string> known = {
                "--batch",         "--device",        "--dim",       "--latency-slo", "--layer-info",
                "--layer-profile", "--measured-mode", "--modes",     "--objective",   "--optimizer",
                "--phase",         "--power-cap",     "--predictor", "--runs",        "--runtime-file",
                "--theme",         "--view"};
            const std::string near = nearestName(arg, known);
            throw InputError("unknown option '" + arg + "' (" +
                             (near.empty() ? "" : "did you mean " + near + "? ") + "try rooftop --help)");
        }
    }
    if (!optimizerGiven.empty() && phaseGiven != "training")
        throw InputError("--optimizer is a training step's update: it goes with --phase training");
    if (phaseGiven == "training")
        options.run = optimizerGiven.empty() ? optimizerName(Optimizer::Adam) : optimizerGiven;
    else if (phaseGiven == "inference")
        options.run = "inference";
    if (!options.layerInfoPath.empty() && options.layerProfilePath.empty())
        throw InputError("--layer-info goes with --layer-profile (a trtexec --exportProfile file)");
    if (!options.measuredMode.empty() && options.layerProfilePath.empty())
        throw InputError("--measured-mode goes with --layer-profile: the mode the profile was measured in");
    return options;
}

int runGui(const GuiOptions& options) {
    QApplication::setWindowIcon(QIcon::fromTheme(QStringLiteral("io.github.rooftop.Rooftop"),
                                                 QIcon(QStringLiteral(":/icons/rooftop.svg"))));
    QGuiApplication::setDesktopFileName(QStringLiteral("io.github.rooftop.Rooftop"));
    std::vector<std::string> models = options.modelPaths;
    if (models.empty()) models.push_back({}); // an empty window
    if ((!options.runsPath.empty() || !options.predictorPath.empty() || !options.layerProfilePath.empty()) &&
        models.front().empty())
        throw InputError("--runs, --predictor and --layer-profile need the model they are of: rooftop "
                         "MODEL.onnx --runs F");
    for (size_t i = 0; i < models.size(); ++i) {
        auto* window = new MainWindow;
        window->setAttribute(Qt::WA_DeleteOnClose);
        if (!options.theme.empty()) window->setTheme(options.theme == "dark" ? Theme::Dark : Theme::Light);
        if (!options.view.empty()) window->showView(QString::fromStdString(options.view));
        if (!options.modeSet.empty()) {
            QComboBox* modeSet = window->parts().toolbar->modeSetBox();
            modeSet->setCurrentIndex(std::max(0, modeSet->findData(QString::fromStdString(options.modeSet))));
        }
        if (options.batch) window->parts().toolbar->batchBox()->setValue(*options.batch);
        if (!options.run.empty()) {
            QComboBox* run = window->parts().toolbar->phaseBox();
            run->setCurrentIndex(std::max(0, run->findData(QString::fromStdString(options.run))));
        }
        if (options.latencySloMs || options.powerCapWatts || !options.objective.empty()) {
            Constraints limits = window->parts().advisor->constraints();
            if (options.latencySloMs) limits.latencySloSeconds = *options.latencySloMs / 1e3;
            if (options.powerCapWatts) limits.powerCapWatts = *options.powerCapWatts;
            const Objective objective =
                parseObjective(options.objective).value_or(window->parts().advisor->objective());
            window->parts().advisor->setQuestion(limits, objective);
        }
        window->show();
        if (!options.runtimePath.empty()) {
            const QString why =
                window->parts().attachments->useRuntimeFile(QString::fromStdString(options.runtimePath));
            if (!why.isEmpty()) throw InputError(why.toStdString());
        }
        window->openModel(QString::fromStdString(models[i]), QString::fromStdString(options.deviceId));
        if (i > 0) continue; // the files and dims are of the first model
        if (!options.dims.empty()) {
            QStringList dims;
            for (const std::string& dim : options.dims)
                dims << QString::fromStdString(dim);
            window->setDims(dims.join(QStringLiteral(", ")));
        }
        if (!options.runsPath.empty()) {
            const QString why =
                window->parts().attachments->loadRunsFile(QString::fromStdString(options.runsPath));
            if (!why.isEmpty()) throw InputError(why.toStdString());
        }
        if (!options.predictorPath.empty()) {
            const QString why =
                window->parts().attachments->loadPredictorFile(QString::fromStdString(options.predictorPath));
            if (!why.isEmpty()) throw InputError(why.toStdString());
        }
        if (!options.layerProfilePath.empty()) { // compared once the analysis has finished; errors in a box
            const QString why = window->parts().attachments->importLayerProfile(
                QString::fromStdString(options.layerProfilePath),
                QString::fromStdString(options.layerInfoPath), std::nullopt,
                QString::fromStdString(options.measuredMode));
            if (!why.isEmpty()) throw InputError(why.toStdString());
        }
    }
    return QApplication::exec();
}

} // namespace rooftop::gui
