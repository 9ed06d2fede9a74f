import Foundation
import Syrup

/// Prints a receipt: renders it to a PDF, then sends it to the printer.
enum ReceiptPrintProgression: Progression {
    typealias Result = String

    /// Initial stage
    case render(order: Order)
    /// Printing stages
    case print(pdf: Data)
    // defect: unreachable-step — no branch ever sets `.legacyFax`, and it is not marked as an initial stage
    case legacyFax(pdf: Data, number: String)
    /// Completed stages
    case printed(jobID: String)

    mutating func updateOrDeferNext() throws -> Deferred<ReceiptPrintProgression>? {
        switch self {
        case let .render(order):
            self = .print(pdf: try ReceiptRenderer().pdf(for: order))
        case let .print(pdf):
            return .future { resolve in
                PrinterQueue.shared.submit(pdf) { jobID, error in
                    if let jobID = jobID {
                        resolve { .printed(jobID: jobID) }
                    } else {
                        resolve { throw error ?? PrintError.offline }
                    }
                }
            }
        case let .legacyFax(pdf, number):
            let jobID = try FaxGateway.send(pdf, to: number)
            self = .printed(jobID: jobID)
        case .printed:
            break
        }
        return nil
    }

    var result: String? {
        guard case let .printed(jobID) = self else { return nil }
        return jobID
    }
}
