import ModuleKit
import PhotosFeature

@_cdecl("modhost_module_entry")
public func moduleEntry(_ request: UInt32) -> UnsafeMutableRawPointer? { ModuleExport.entry(PhotosModule.self, request) }
