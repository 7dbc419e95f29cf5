import { createRoot } from 'react-dom/client';
import { BrowserRouter, Routes, Route, Link, Outlet, Navigate, useLocation, useNavigate } from 'react-router';
function A() { const l = useLocation(); const n = useNavigate(); return <div onClick={() => n('/x')}>{l.pathname}<Link to="/b">b</Link><Outlet /></div>; }
createRoot(document.body).render(<BrowserRouter><Routes><Route path="/" element={<A />}><Route path="x" element={<Navigate to="/" />} /></Route></Routes></BrowserRouter>);
