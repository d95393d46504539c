import Contracts

extension ModuleState {
    /// The state's word for people (`report.state.<state>` in the host's strings; its English
    /// is the word itself), as `modules`, `check`, `graph` and help say it.
    package var word: HostText { HostText("report.state." + rawValue, rawValue) }
}
