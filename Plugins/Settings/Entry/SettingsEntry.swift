import ModuleKit
import SettingsFeature

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(SettingsModule.self, request) }
