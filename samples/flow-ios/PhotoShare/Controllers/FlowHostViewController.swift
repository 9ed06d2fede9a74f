import UIKit
import Flow_iOS

/// Common will-start / did-finish handling for every screen that runs flows.
class FlowHostViewController: UIViewController {
    @IBOutlet weak var summaryTextView: UITextView!

    func commonWillStartBlock(block: FlowWillStartBlock? = nil) -> FlowWillStartBlock {
        let result: FlowWillStartBlock = { flow in
            block?(flow)
            self.summaryTextView.text = "Flow Starting..."
        }
        return result
    }

    func commonDidFinishBlock(block: FlowDidFinishBlock? = nil) -> FlowDidFinishBlock {
        let result: FlowDidFinishBlock = { flow in
            block?(flow)
            self.summaryTextView.text = flow.generateSummary()
        }
        return result
    }
}
