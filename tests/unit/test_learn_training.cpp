// SPDX-License-Identifier: GPL-3.0-or-later
// PowerTrain's own case: time per minibatch and power of training steps learned from a few modes, judged on
// every one of the 4,368 AGX Orin 64GB grid modes against the other physics
// (tests/support/other_physics_board.h, laws the learner was not built around), never against Rooftop's
// predictions. ResNet-50 and MobileNetV3-Large training steps at minibatch 16 with Adam; transfer from a
// 400-mode ResNet-50 reference to 15 MobileNetV3 modes. A predictor knows its workload: an inference
// predictor refuses a training question and the other way round.
#include "core/common/errors.h"
#include "core/device/mode_set.h"
#include "core/device/power_mode.h"
#include "core/learn/learn_points.h"
#include "core/learn/predictor_file.h"
#include "core/session/analysis_session.h"
#include "support/device_fixtures.h"
#include "support/other_physics_board.h"
#include "support/test_registry.h"
#include "support/test_support.h"

#include <QTemporaryDir>
#include <QTest>
#include <cmath>
#include <map>
#include <tuple>

using namespace rooftop;

namespace {

/// A predictor learned as `rooftop learn --phase training` learns it.
Predictor learnTraining(const std::vector<LearnPoint>& points, const Predictor* reference = nullptr) {
    LearnOptions options;
    options.phase = Phase::Training;
    return learnPredictor(points, reference, options);
}

AnalysisSettings trainingAt16() {
    AnalysisSettings settings;
    settings.dims.batch = 16;
    settings.phase = Phase::Training;
    settings.optimizer = Optimizer::Adam;
    return settings;
}

class TrainingGrid {
public:
    explicit TrainingGrid(DeviceSpec device) : device_(std::move(device)), runtime_(findRuntime("tensorrt")) {
        grid_ = gridPowerModes(device_);
        for (size_t i = 0; i < grid_.size(); ++i) {
            index_[grid_[i].name] = i;
            profiles_.push_back(deriveModeProfile(device_, grid_[i], runtime_));
        }
        for (const std::string model : {"resnet50", "mobilenet_v3_large"}) {
            workloads_[model] = test::analyzeSample(model, trainingAt16());
            std::vector<RunResult>& truth = truth_[model];
            for (const PowerMode& mode : grid_)
                truth.push_back(test::otherPhysics(device_, workloads_[model], mode, 11));
        }
    }

    std::vector<LearnPoint> points(const std::string& model, int count, uint64_t seed) const {
        std::vector<MeasuredRun> runs;
        for (const PowerMode& mode :
             modesFor(device_, "sample:" + std::to_string(count), std::nullopt, seed)) {
            const RunResult& r = truth_.at(model)[index_.at(mode.name)];
            MeasuredRun run;
            run.mode = mode;
            run.batch = 16;
            run.latencySeconds = r.latencyMs * 1e-3;
            run.watts = *r.powerW;
            runs.push_back(run);
        }
        const Workload& workload = workloads_.at(model);
        return learnPoints(device_, runtime_, runs,
                           [&](int64_t, Precision) -> const Workload& { return workload; });
    }

    /// Time and power MAPE over the grid against the other physics.
    /// Mean absolute relative errors of time, power and energy over the grid.
    std::tuple<double, double, double> gridErrors(const Predictor& predictor,
                                                  const std::string& model) const {
        const std::vector<ModeSummary> predicted =
            predictModes(predictor, device_, workloads_.at(model), Precision::FP32, profiles_);
        double time = 0, power = 0, energy = 0;
        for (size_t i = 0; i < grid_.size(); ++i) {
            const RunResult& truth = truth_.at(model)[i];
            time += std::abs(predicted[i].latencySeconds * 1e3 / truth.latencyMs - 1.0);
            power += std::abs(predicted[i].averageWatts / *truth.powerW - 1.0);
            energy += std::abs(predicted[i].energyJoules / (*truth.powerW * truth.latencyMs * 1e-3) - 1.0);
        }
        const double n = double(grid_.size());
        return {time / n, power / n, energy / n};
    }

    /// The truly fastest mode within a power cap, and the predictor's pick under the same cap.
    std::pair<size_t, size_t> fastestUnderCap(const Predictor& predictor, const std::string& model,
                                              double cap) const {
        const std::vector<ModeSummary> predicted =
            predictModes(predictor, device_, workloads_.at(model), Precision::FP32, profiles_);
        size_t best = grid_.size(), pick = grid_.size();
        for (size_t i = 0; i < grid_.size(); ++i) {
            const RunResult& truth = truth_.at(model)[i];
            if (*truth.powerW <= cap &&
                (best == grid_.size() || truth.latencyMs < truth_.at(model)[best].latencyMs))
                best = i;
            // Within the cap with a 2 % margin for the predictor's own power error.
            if (predicted[i].averageWatts * 1.02 <= cap &&
                (pick == grid_.size() || predicted[i].latencySeconds < predicted[pick].latencySeconds))
                pick = i;
        }
        return {best, pick};
    }
    const RunResult& truth(const std::string& model, size_t i) const { return truth_.at(model)[i]; }
    const PowerMode& mode(size_t i) const { return grid_[i]; }

private:
    DeviceSpec device_;
    RuntimeProfile runtime_;
    std::vector<PowerMode> grid_;
    std::vector<ModeProfile> profiles_;
    std::map<std::string, size_t> index_;
    std::map<std::string, Workload> workloads_;
    std::map<std::string, std::vector<RunResult>> truth_;
};

const TrainingGrid& trainingGrid() {
    static const TrainingGrid g(test::shippedAgxOrin());
    return g;
}

/// The same workloads on an Orin NX 16GB (1,456 grid modes), for a transfer across boards.
const TrainingGrid& orinNxGrid() {
    static const TrainingGrid g(resolveDevice("orin-nx-16gb"));
    return g;
}

} // namespace

class TestLearnTraining : public QObject {
    Q_OBJECT

private slots:
    void fiftyModesOfResnet50Training() {
        const Predictor p = learnTraining(trainingGrid().points("resnet50", 50, 31));
        const auto [time, power, energy] = trainingGrid().gridErrors(p, "resnet50");
        qInfo("resnet50 training (minibatch 16, adam), 50 modes: grid time MAPE %.1f %%, power MAPE %.1f %%, "
              "energy %.1f %% over 4368 modes",
              100 * time, 100 * power, 100 * energy);
        QVERIFY2(time <= 0.10, "time MAPE above 10 %");
        QVERIFY2(power <= 0.05, "power MAPE above 5 %");

        // PowerTrain's question: the fastest training mode within 20 W, truly within the cap (2 % slack) and
        // within 5 % of the truly fastest.
        const auto [best, pick] = trainingGrid().fastestUnderCap(p, "resnet50", 20.0);
        const RunResult& picked = trainingGrid().truth("resnet50", pick);
        const RunResult& fastest = trainingGrid().truth("resnet50", best);
        qInfo("under 20 W: pick %s truly %.1f ms at %.2f W; the truly fastest %s %.1f ms at %.2f W",
              trainingGrid().mode(pick).name.c_str(), picked.latencyMs, *picked.powerW,
              trainingGrid().mode(best).name.c_str(), fastest.latencyMs, *fastest.powerW);
        QVERIFY(*picked.powerW <= 20.0 * 1.02);
        QVERIFY(picked.latencyMs <= fastest.latencyMs * 1.05);
    }

    void transferToMobileNetTraining() {
        Predictor reference = learnTraining(trainingGrid().points("resnet50", 400, 41));
        reference.model = "resnet50.onnx";
        const std::vector<LearnPoint> few = trainingGrid().points("mobilenet_v3_large", 15, 42);
        const Predictor adapted = learnTraining(few, &reference);
        const Predictor alone = learnTraining(few);
        const auto [time, power, energy] = trainingGrid().gridErrors(adapted, "mobilenet_v3_large");
        const auto [aloneTime, alonePower, aloneEnergy] =
            trainingGrid().gridErrors(alone, "mobilenet_v3_large");
        qInfo("training, 400 resnet50 + 15 mobilenet_v3_large modes: grid time MAPE %.2f %%, power %.2f %%, "
              "energy %.2f %% (15 modes alone: %.1f %%, %.1f %%, %.1f %%)",
              100 * time, 100 * power, 100 * energy, 100 * aloneTime, 100 * alonePower, 100 * aloneEnergy);
        // The targets, 10 % and 5 %. Adapted wholesale, power landed at 5.02 % (ResNet-50 loads the
        // board otherwise); the learner keeps the reference per quantity only where it cross-validates
        // better.
        QVERIFY(time <= 0.10);
        QVERIFY(power <= 0.05);
        // the reference never costs what the model's own runs would give. Power from this model's runs alone
        // (the same coefficients) is read at each predictor's learned latency and can come out worse with the
        // adapted time, so time and energy, the pair, are compared, and power against the target
        QVERIFY(time <= aloneTime * 1.05 && energy <= aloneEnergy * 1.05);
        // here its time helped and its power did not (alone 3.8 %, adapted 5.0 %): the basis says which
        QVERIFY(!adapted.time.reference.empty());
        QVERIFY(adapted.power.reference.empty());
        QVERIFY2(adapted.basis().find("time adapted from 400 runs") != std::string::npos &&
                     adapted.basis().find("power from this model's runs alone") != std::string::npos,
                 adapted.basis().c_str());
    }

    // PowerTrain's transfer across boards: a reference learned on the AGX Orin (400 ResNet-50 training modes)
    // adapted to 15 modes of the same training on an Orin NX 16GB (8 SMs, half the memory bus), judged on all
    // 1,456 NX grid modes; and MobileNetV3-Large on the NX from the same reference.
    void transferAcrossBoards() {
        Predictor reference = learnTraining(trainingGrid().points("resnet50", 400, 41));
        reference.model = "resnet50.onnx";
        reference.board = "agx-orin-64gb";
        for (const char* model : {"resnet50", "mobilenet_v3_large"}) {
            const std::vector<LearnPoint> few = orinNxGrid().points(model, 15, 43);
            const Predictor adapted = learnTraining(few, &reference);
            const Predictor alone = learnTraining(few);
            const auto [time, power, energy] = orinNxGrid().gridErrors(adapted, model);
            const auto [aloneTime, alonePower, aloneEnergy] = orinNxGrid().gridErrors(alone, model);
            qInfo(
                "training on orin-nx-16gb, 15 %s modes + 400 resnet50 modes of agx-orin-64gb: grid time MAPE "
                "%.1f %%, power %.1f %%, energy %.1f %% (15 modes alone: %.1f %%, %.1f %%, %.1f %%); %s",
                model, 100 * time, 100 * power, 100 * energy, 100 * aloneTime, 100 * alonePower,
                100 * aloneEnergy, adapted.referenceText().c_str());
            QCOMPARE(adapted.referenceBoard, std::string("agx-orin-64gb"));
            QVERIFY(time <= 0.10 && power <= 0.05);
            // as above: power from the model's own runs can come out worse with the adapted time
            // (MobileNetV3-Large 2.5 % against 2.3 % alone), so time and energy are compared
            QVERIFY(time <= aloneTime * 1.05 && energy <= aloneEnergy * 1.05);
        }
    }

    // The README's table: grid errors against the number of profiled modes, ResNet-50 training learned alone
    // and MobileNetV3-Large training transferred from 400 ResNet-50 modes; PowerTrain's published bounds (15
    // % time, 6 % power with 50 modes on a real AGX Orin) must hold from 15 modes on.
    void accuracyAgainstProfiledModes() {
        const Predictor reference = learnTraining(trainingGrid().points("resnet50", 400, 41));
        for (const int count : {10, 15, 20, 50}) {
            const auto [time, power, energy] = trainingGrid().gridErrors(
                learnTraining(trainingGrid().points("resnet50", count, 60 + count)), "resnet50");
            const auto [moveTime, movePower, moveEnergy] = trainingGrid().gridErrors(
                learnTraining(trainingGrid().points("mobilenet_v3_large", count, 70 + count), &reference),
                "mobilenet_v3_large");
            qInfo("| %d | %.1f %% | %.1f %% | %.1f %% | %.1f %% |", count, 100 * time, 100 * power,
                  100 * moveTime, 100 * movePower);
            if (count >= 15) {
                QVERIFY(time <= 0.15 && moveTime <= 0.15);
                QVERIFY(power <= 0.06 && movePower <= 0.05);
            }
        }
    }

    // The predictor file keeps the workload; the pipeline refuses a predictor of the other phase, naming
    // both.
    void aPredictorAnswersOnlyItsOwnWorkload() {
        Predictor p = learnTraining(trainingGrid().points("resnet50", 20, 51));
        QCOMPARE(p.time.ridgePull, 1e-3); // a training step's time fits freely (inference keeps the shape)
        p.board = "agx-orin-64gb";
        p.model = "resnet50.onnx";
        p.modelHash = modelFileHash(test::samplePath("resnet50"));
        p.dims = "";
        QCOMPARE(p.phase, Phase::Training); // the learner keeps the phase it was told
        p.optimizer = Optimizer::Adam;
        QTemporaryDir dir;
        const std::string path = dir.filePath("train.json").toStdString();
        savePredictor(path, p, "runs.csv");
        const Predictor loaded = loadPredictor(path);
        QCOMPARE(int(loaded.phase), int(Phase::Training));
        QCOMPARE(int(loaded.optimizer), int(Optimizer::Adam));

        AnalysisRequest request;
        request.modelPath = test::samplePath("resnet50");
        request.deviceId = "agx-orin-64gb";
        request.predictorPath = path;
        request.settings.dims.batch = 16;
        const QString inference = test::errorOf([&] { runAnalysis(request); });
        QVERIFY2(inference.contains("learned for training (adam), not inference"), qPrintable(inference));
        request.settings.phase = Phase::Training;
        request.settings.optimizer = Optimizer::Sgd;
        const QString sgd = test::errorOf([&] { runAnalysis(request); });
        QVERIFY2(sgd.contains("learned for training (adam), not training (sgd)"), qPrintable(sgd));
        request.settings.optimizer = Optimizer::Adam;
        const AnalysisResult result = runAnalysis(request);
        QCOMPARE(result.predictions.front().provenance, Provenance::Predicted);
    }
};

ROOFTOP_TEST_CLASS(TestLearnTraining)
#include "test_learn_training.moc"
