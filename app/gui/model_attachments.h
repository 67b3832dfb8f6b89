// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/compare/compare_session.h"
#include "core/learn/predictor.h"
#include "core/measure/runs_file.h"
#include "core/session/analysis_request.h"
#include "gui/layer_profile_dialog.h"
#include "report/scene_builder.h"

#include <QList>
#include <QObject>
#include <QString>
#include <functional>
#include <optional>
#include <vector>

class QWidget;

namespace rooftop::gui {

class AnalysisToolbar;
class LayerProfileImport;

/// The files attached to the open model: a measured profile (of one board), a predictor (of one model on one
/// board), a runs file, a measured layer profile and runtime files. Loads, chooses and imports them, fills
/// the AnalysisRequest with those that apply and says when they change.
class ModelAttachments : public QObject {
    Q_OBJECT
public:
    /// Selects a board now, or once the catalog has loaded; false when the catalog lacks it.
    using BoardChooser = std::function<bool(const QString& deviceId)>;

    ModelAttachments(AnalysisToolbar& toolbar, BoardChooser chooseBoard, QWidget* window);

    /// The model the files are of (absolute path); another one drops the layer profile.
    void setModel(const QString& path);
    /// The open model, empty when none.
    const QString& modelPath() const { return modelPath_; }
    /// Puts the model, the profile of the request's board and the predictor of this model on it in the
    /// request.
    void fillRequest(AnalysisRequest& request) const;
    /// The layer profile's comparison (File → Import measured layer profile…).
    LayerProfileImport* layerImport() const { return layerImport_; }

    /// Uses a measured profile of this board (only while it is chosen).
    void useProfile(const QString& path, const QString& deviceId);
    /// Drops the measured profile: derived ceilings.
    void useDerivedCeilings();
    /// Shows the runs of a runs file for the open model as measured points; empty on success, else the
    /// reason.
    QString loadRunsFile(const QString& path);
    /// Offers a runtime file's runtimes in the toolbar and analyses with its first; the reason when it
    /// cannot.
    QString useRuntimeFile(const QString& path);
    /// Takes latency, energy and power of every mode from a predictor (rooftop learn -o) of the open model,
    /// on the predictor's board; empty on success, else the reason (another model, a bad file).
    QString loadPredictorFile(const QString& path);
    /// Goes back to Rooftop's own predictions.
    void dropPredictor();
    /// True while a measured profile replaces the derived ceilings.
    bool hasProfile() const { return !profilePath_.isEmpty(); }
    /// True while a predictor gives the modes' numbers.
    bool hasPredictor() const { return !predictorPath_.isEmpty(); }
    /// Compares a measured per-layer profile (trtexec --exportProfile with an optional --exportLayerInfo,
    /// ONNX Runtime profile, Nsight Compute CSV; `source` none: read from the file) with the open model's
    /// roofline in the mode it was measured in (canonical name; empty: not known, the mode the points are
    /// shown for), and keeps it in step with the board, batch and precision. Empty when the comparison
    /// started (its errors come later), else why not.
    QString importLayerProfile(const QString& path, const QString& layerInfoPath = {},
                               std::optional<ProfileSource> source = std::nullopt,
                               const QString& measuredMode = {});
    /// The modes a layer profile may have been measured in (the board's stock modes, from each analysis).
    void setModeChoices(const QList<ModeChoice>& modes) { modeChoices_ = modes; }
    const QList<ModeChoice>& modeChoices() const { return modeChoices_; }
    /// The mode the layer profile was measured in (canonical name, empty: not known); compares again.
    void setMeasuredMode(const QString& name);
    /// The mode the imported layer profile was measured in, empty when not known or none imported.
    QString measuredMode() const;
    /// Drops the imported layer profile.
    void clearLayerProfile();
    /// Starts the layer profile's comparison again when the analysis or the mode shown has changed.
    void syncLayerProfile(const AnalysisResult& result, const report::SceneChoice& shown);
    /// A new model's analysis: the runs of another model go.
    void modelAnalysed();

    /// File menu: asks for a measured profile and uses it on its board.
    void chooseMeasuredProfile();
    /// File menu: asks for a runs file of the open model.
    void chooseRunsFile();
    /// File menu: asks for a predictor of the open model.
    void choosePredictorFile();
    /// File menu: asks for a runtime file.
    void chooseRuntimeFile();
    /// File menu: asks for a measured layer profile and how to read it.
    void chooseLayerProfile();

signals:
    /// A file the analysis reads changed (profile, predictor): analyse again.
    void changed();
    /// The measured points to show (none: empty rows) and where they came from.
    void runsChanged(const std::vector<rooftop::RunRow>& rows, const QString& source);
    /// A file was loaded whose numbers the power modes view shows.
    void modesViewWanted();
    /// The layer profile's comparison changed (a new one, or none).
    void layerProfileChanged();
    /// A layer profile measured in this mode (canonical name) was imported: show its predictions.
    void measuredModeChosen(const QString& name);
    /// A line for the status bar.
    void statusMessage(const QString& text);
    /// A file was refused.
    void failed(const QString& title, const QString& message);

private:
    void chooseFileOfTheModel(const QString& title, const QString& filter,
                              QString (ModelAttachments::*load)(const QString&));
    void showPredictorRuns(const Predictor& predictor, const QString& source);

    AnalysisToolbar& toolbar_;
    BoardChooser chooseBoard_;
    QWidget* window_;
    LayerProfileImport* layerImport_ = nullptr;
    QString modelPath_;
    QString profilePath_;     ///< measured profile in use, empty: derived ceilings
    QString profileDevice_;   ///< the board the profile was measured on (used only for that board)
    QString runsModel_;       ///< the model the runs file shown was loaded for
    QString predictorPath_;   ///< predictor in use, empty: Rooftop's predictions
    QString predictorModel_;  ///< the model the predictor was loaded for (used only for that model)
    QString predictorDevice_; ///< the predictor's board (used only on that board)
    /// the imported files and the mode they were measured in (empty: the mode shown, at each run); the
    /// analysis is filled in at each run
    std::optional<CompareRequest> layerProfile_;
    QList<ModeChoice> modeChoices_;
};

} // namespace rooftop::gui
