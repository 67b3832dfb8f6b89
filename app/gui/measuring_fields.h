// SPDX-License-Identifier: GPL-3.0-or-later
#pragma once

#include "core/graph/data_type.h"
#include "core/measure/run_estimate.h"

#include <QObject>
#include <QString>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

class QCheckBox;
class QComboBox;
class QFormLayout;
class QLabel;
class QLineEdit;
class QWidget;

namespace rooftop::gui {

struct ProfileDialogDefaults;

/// The fields the profile and tune dialogs share: the runner and its command, "do not switch", the modes,
/// batch sizes, precisions and the runs file, with readable labels (the --modes spelling is the item's
/// data); their values remembered between openings (QSettings, under the dialog's group); and the line that
/// says how many runs they ask for and about how long, kept up to date as they change.
class MeasuringFields : public QObject {
    Q_OBJECT
public:
    /// `group`: the QSettings group the fields are remembered under ("profileDialog", "tuneDialog").
    MeasuringFields(const ProfileDialogDefaults& defaults, const QString& group, QWidget* parent);

    /// Runner, command and "Do not switch modes".
    void addRunnerRows(QFormLayout* form);
    /// Modes (first: `firstModeSet`), dims, batch sizes and precisions.
    void addWorkloadRows(QFormLayout* form, const QString& firstModeSet);
    /// The runs file with Browse….
    void addRunsFileRow(QFormLayout* form);
    /// The runs estimate ("4 modes × 2 batches × 3 precisions = 24 runs, about 1 min").
    QLabel* estimateLabel() const { return estimate_; }

    /// The --runner spelling; throws InputError for a command runner without a command.
    std::string runner() const;
    /// Whether the modes are left as they are (the simulated board never switches).
    bool noSwitch() const;
    /// The mode set's --modes spelling.
    std::string modes() const;
    std::vector<int64_t> batches() const;      ///< throws InputError naming the field
    std::vector<Precision> precisions() const; ///< throws InputError naming the field
    std::string runsPath() const;              ///< throws InputError when empty

    void setRunner(const QString& spec);
    void setModes(const QString& spec);
    void setRunsPath(const QString& path);

    /// The estimate of these fields with `repeat` runs per configuration and, for a tune, a budget.
    RunEstimate estimate(int repeat, std::optional<int> budget) const;
    /// Shows describeRunEstimate of estimate(repeat, budget), or the field that cannot be read.
    void showEstimate(int repeat, std::optional<int> budget);

    /// Remembers the fields (the runs file per model) for the next opening.
    void save() const;

signals:
    /// A field changed: the estimate is due again.
    void changed();

private:
    void restore();
    void runnerChanged();
    void browse();

    const ProfileDialogDefaults& defaults_;
    QString group_;
    QWidget* parent_;
    QComboBox* runner_ = nullptr;
    QLineEdit* command_ = nullptr;
    QCheckBox* noSwitch_ = nullptr;
    QComboBox* modes_ = nullptr;
    QLineEdit* batches_ = nullptr;
    QLineEdit* precisions_ = nullptr;
    QLineEdit* runsPath_ = nullptr;
    QLabel* estimate_ = nullptr;
};

} // namespace rooftop::gui
