import GeoFeature
import ModuleKit

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(GeoModule.self, request) }
