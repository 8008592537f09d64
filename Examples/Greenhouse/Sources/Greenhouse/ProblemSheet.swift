#if canImport(SwiftUI)
import SwiftUI
#else
import RippleUI
#endif

/// The sheet that says what went wrong; Close dismisses it through the environment.
struct ProblemSheet: View {
    let problem: Problem
    @Environment(\.dismiss) private var dismiss

    var body: some View {
        NavigationStack {
            VStack(spacing: 12) {
                Image(systemName: "exclamationmark.triangle")
                    .accessibilityLabel("Warning")
                Text(problem.headline)
                Text(problem.nextStep)
                    .foregroundStyle(.secondary)
            }
            .navigationTitle("Oops")
            .toolbar {
                ToolbarItem(placement: .confirmationAction) {
                    Button("Close") { dismiss() }
                }
            }
        }
    }
}
