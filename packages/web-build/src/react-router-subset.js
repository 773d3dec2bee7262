// The part of react-router the shop's apps use, shared under the names `react-router` and
// `react-router-dom` (see SHARED_SINGLETONS in rspack-config.ts). A shared module cannot be
// tree-shaken (another app may use any export), so every app's build resolves both names to
// this one list instead of the whole library: what is not named here never reaches a
// browser (the data routers, forms, fetchers, server rendering). Every app builds against the
// same list. react-router-subset.test.ts fails when an app imports a name missing here (or uses
// react-router in a way whose names cannot be listed), so a remote can never get `undefined` from
// the shell's copy at run time. To use more of react-router, add the name here; the shell with
// the longer list goes live before the remote that uses it (docs/adr/0002-react-router-subset.md).
export {
  BrowserRouter,
  Link,
  NavLink,
  Navigate,
  Outlet,
  Route,
  Routes,
  useLocation,
  useNavigate,
  useParams,
  useRoutes,
  useSearchParams,
} from '@boatshop/react-router-implementation';
