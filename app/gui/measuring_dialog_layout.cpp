// SPDX-License-Identifier: GPL-3.0-or-later
#include "gui/measuring_dialog_layout.h"

#include <QDialog>
#include <QDialogButtonBox>
#include <QFileInfo>
#include <QFormLayout>
#include <QLabel>
#include <QPushButton>
#include <QVBoxLayout>

namespace rooftop::gui {

QString workloadText(const ProfileDialogDefaults& defaults) {
    QString text = ProfileDialog::runText(defaults.phase, defaults.optimizer);
    if (!defaults.dims.empty()) text += QStringLiteral(", ") + ProfileDialog::dimsText(defaults.dims);
    return text;
}

void layOutMeasuringDialog(QDialog* dialog, const ProfileDialogDefaults& defaults, QFormLayout* form,
                           const QString& what, const QString& ok) {
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
    layout->addWidget(buttons);
    dialog->resize(640, dialog->sizeHint().height());
}

} // namespace rooftop::gui
