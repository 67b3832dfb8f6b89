// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/measuring_dialog_layout.h"

#include "gui/path_text.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPushButton>
#include <QVBoxLayout>
#include <algorithm>

namespace rooftop::gui {

QString workloadText(const ProfileDialogDefaults& defaults) {
    QString text = ProfileDialog::runText(defaults.phase, defaults.optimizer);
    if (!defaults.dims.empty()) text += QStringLiteral(", ") + ProfileDialog::dimsText(defaults.dims);
    return text;
}

void layOutMeasuringDialog(QDialog* dialog, const ProfileDialogDefaults& defaults, QFormLayout* form,
                           const QString& what, const QString& ok, QWidget* note) {
    auto* buttons = new QDialogButtonBox(QDialogButtonBox::Ok | QDialogButtonBox::Cancel, dialog);
    buttons->button(QDialogButtonBox::Ok)->setText(ok);
    QObject::connect(buttons, &QDialogButtonBox::accepted, dialog, &QDialog::accept);
    QObject::connect(buttons, &QDialogButtonBox::rejected, dialog, &QDialog::reject);
    auto* header = new QLabel(
        QStringLiteral("<b>%1</b> on %2: %3")
            .arg(QFileInfo(defaults.modelPath).fileName().toHtmlEscaped(),
                 (defaults.deviceName.isEmpty() ? defaults.deviceId : defaults.deviceName).toHtmlEscaped(),
                 what),
        dialog);
    header->setWordWrap(true);
    auto* layout = new QVBoxLayout(dialog);
    layout->addWidget(header);
    layout->addLayout(form);
    if (note) layout->addWidget(note);
    layout->addWidget(buttons);
    // the header wraps at 640 pixels: the height for that width, not the unwrapped hint's
    const int height = layout->hasHeightForWidth() ? layout->totalHeightForWidth(640) : 0;
    dialog->resize(640, std::max(height, dialog->sizeHint().height()));
}

QLabel* addRunsHint(QLineEdit* runs) {
    auto* hint = new QLabel(runs->parentWidget());
    hint->setObjectName(QStringLiteral("runsHint"));
    hint->setWordWrap(true);
    hint->setText(
        QObject::tr("No runs file here yet: Device → Profile this model… measures the model in a few "
                    "power modes and writes one (rooftop profile does the same; its --runner sim runs "
                    "the simulated board)."));
    const auto update = [hint, runs] {
        const QString path = pathAsTyped(runs->text().trimmed());
        hint->setVisible(path.isEmpty() || !QFileInfo(path).isFile());
    };
    QObject::connect(runs, &QLineEdit::textChanged, hint, update);
    update();
    return hint;
}

} // namespace rooftop::gui
